def helper(x):
    return x * 2


def other():
    return "TODO later"
