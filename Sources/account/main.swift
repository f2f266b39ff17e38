print("account: not built yet")
