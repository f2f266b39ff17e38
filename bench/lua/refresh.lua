-- POST /auth/refresh, each request with a refresh token never used before: thread t of T takes
-- pool tokens BENCH_OFFSET + t, + t + T, + t + 2T, ... (the seeder wrote tokens `pool-<j>`).
local threads = {}
local counter = 0
function setup(thread)
   thread:set("tid", counter)
   counter = counter + 1
   table.insert(threads, thread)
end
function init(args)
   next_index = tonumber(os.getenv("BENCH_OFFSET")) + tid
   step = tonumber(os.getenv("BENCH_THREADS"))
   wrk.method = "POST"
   wrk.headers["Content-Type"] = "application/json"
end
function request()
   local body = '{"refresh":"pool-' .. next_index .. '"}'
   next_index = next_index + step
   return wrk.format(nil, nil, nil, body)
end
