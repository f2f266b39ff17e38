-- POST /auth/login as a random seeded account (all share BENCH_PASSWORD).
function init(args)
   count = tonumber(os.getenv("BENCH_ACCOUNTS"))
   password = os.getenv("BENCH_PASSWORD")
   math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 100000)
   wrk.method = "POST"
   wrk.headers["Content-Type"] = "application/json"
end
function request()
   local body = '{"login":"user' .. math.random(0, count - 1) .. '","password":"' .. password .. '"}'
   return wrk.format(nil, nil, nil, body)
end
