-- The separator bytes of index members and stored index values (see ../keys.ts). Loaded first: every other
-- library and script may use them.

local NUL, SOH, HIGH, NL = string.char(0), string.char(1), string.char(255), string.char(10)
