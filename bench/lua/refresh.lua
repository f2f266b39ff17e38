-- POST /auth/refresh as clients do it: every reply's new refresh token is the one sent next for
-- that session. BENCH_TOKENS names a file of refresh tokens never used (one a line, one session
-- each); thread t of BENCH_THREADS takes lines t, t + T, t + 2T, ... as its queue of sessions, and
-- each request takes the token at the front and puts the token of its reply at the back. So the
-- token format is whatever the server issues (the seeded first tokens aside), and each session
-- is rotated again and again, one request at a time, like one client's.
local counter = 0
function setup(thread)
   thread:set("tid", counter)
   counter = counter + 1
end
function init(args)
   local step = tonumber(os.getenv("BENCH_THREADS"))
   queue, head, tail = {}, 1, 0
   local i = 0
   for line in io.lines(os.getenv("BENCH_TOKENS")) do
      if i % step == tid then
         tail = tail + 1
         queue[tail] = line
      end
      i = i + 1
   end
   wrk.method = "POST"
   wrk.headers["Content-Type"] = "application/json"
end
function request()
   local token = "no-token-left"  -- every session failed: the replies count as errors
   if head <= tail then
      token = queue[head]
      queue[head] = nil
      head = head + 1
   end
   return wrk.format(nil, nil, nil, '{"refresh":"' .. token .. '"}')
end
function response(status, headers, body)
   if status == 200 then
      local token = body:match('"refresh"%s*:%s*"([^"]+)"')
      if token then
         tail = tail + 1
         queue[tail] = token
      end
   end
end
