-- GET /admin/api/users as an operator (BENCH_TOKEN), cycling through the searches a console makes
-- over BENCH_ACCOUNTS seeded accounts (user<i>, created one a second, newest last): the newest
-- page, filters alone and together, a nickname prefix, an address prefix, a time range, and a
-- page deep in the list (a cursor from the middle), and the searches that would cost the most
-- were a page's cost to grow with the matches: a one-letter prefix, a prefix clustered in time
-- (`q=user33` matches 11,111 of a million, created a third of the way in) inside a window that
-- holds none of them, disabled and second-factor filters with a prefix, a one-hour window with a
-- prefix, a wide window whose accounts come last in key order (`q=u`, the newest tenth), and a
-- page deep in key order (BENCH_KEY_CURSOR: after `user5`).
function init(args)
   local count = tonumber(os.getenv("BENCH_ACCOUNTS"))
   local middle = os.getenv("BENCH_MIDDLE_CURSOR")
   local i = math.floor(count / 3)
   local now = os.time()
   local function iso(t) return os.date("!%Y-%m-%dT%H:%M:%SZ", t) end
   paths = {
      "/admin/api/users",
      "/admin/api/users?verified=true",
      "/admin/api/users?mfa=false&disabled=false",
      "/admin/api/users?verified=false",
      "/admin/api/users?disabled=true",
      "/admin/api/users?q=user" .. i,
      "/admin/api/users?q=user" .. string.sub(tostring(i), 1, 2),
      "/admin/api/users?q=user" .. math.floor(i / 10) .. "%40bench",
      "/admin/api/users?created_after=" .. iso(now - count + i) .. "&created_before=" .. iso(now - count + 2 * i),
      "/admin/api/users?limit=100&after=" .. middle,
      "/admin/api/users?q=u",
      "/admin/api/users?q=user&disabled=true",
      "/admin/api/users?q=user" .. string.sub(tostring(i), 1, 2) .. "&mfa=true&verified=false",
      "/admin/api/users?q=user&created_after=" .. iso(now - count + i) .. "&created_before=" .. iso(now - count + i + 3600),
      "/admin/api/users?q=u&created_after=" .. iso(now - math.floor(count / 10)),
      "/admin/api/users?q=user" .. string.sub(tostring(i), 1, 2) .. "&created_after=" .. iso(now - math.floor(count / 2)),
      "/admin/api/users?q=user&limit=100&after=" .. os.getenv("BENCH_KEY_CURSOR"),
   }
   n = 0
   wrk.headers["Authorization"] = "Bearer " .. os.getenv("BENCH_TOKEN")
end
function request()
   n = n + 1
   return wrk.format("GET", paths[(n % #paths) + 1])
end
