-- GET /auth/me with one valid access token (BENCH_TOKEN).
wrk.method = "GET"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("BENCH_TOKEN")
