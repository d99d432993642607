-- wrk script of side_by_side.sh: GET $QAG_PATH<n> with n cycling through 1..300 (every film of the demo database),
-- with X-API-Key: $QAG_KEY when set. Each wrk thread counts on its own.
local path, key = os.getenv("QAG_PATH"), os.getenv("QAG_KEY")
local n = 0
request = function()
  n = n % 300 + 1
  local headers = {}
  if key and key ~= "" then headers["X-API-Key"] = key end
  return wrk.format("GET", path .. n, headers)
end
