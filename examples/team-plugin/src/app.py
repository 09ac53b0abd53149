print("service")
