let z = 2
