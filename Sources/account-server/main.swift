print("account-server: not built yet")
