print("needle")
