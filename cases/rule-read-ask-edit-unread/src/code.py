print("CODE")
