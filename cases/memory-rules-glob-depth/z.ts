let z = 0
