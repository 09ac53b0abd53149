def main():
    # TODO: parse args
    print("hello")
