-- nginx ceiling: a plain GET, the same settings as the other runs.
wrk.method = "GET"
