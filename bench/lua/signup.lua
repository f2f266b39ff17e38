-- POST /auth/signup with a username and address no one has: s<run>t<thread>n<counter>.
local counter = 0
function setup(thread)
   thread:set("tid", counter)
   counter = counter + 1
end
function init(args)
   run = os.getenv("BENCH_RUN")
   password = os.getenv("BENCH_PASSWORD")
   n = 0
   wrk.method = "POST"
   wrk.headers["Content-Type"] = "application/json"
end
function request()
   n = n + 1
   local name = "s" .. run .. "t" .. tid .. "n" .. n
   local body = '{"username":"' .. name .. '","email":"' .. name .. '@bench.test","password":"' ..
      password .. '","mbti":"INTJ"}'
   return wrk.format(nil, nil, nil, body)
end
