"""The Lua scripts of the Redis store (`server.store.redis`), each run by Redis alone.

Every check of a script comes before its first write, so a script that refuses changes
nothing. Each touches the keys of one room only, and the global `rooms` set when the
layout has one (it has none in a Redis Cluster, where a script may only touch keys of one
hash slot: the room's keys share one through their hash tag).
"""

from __future__ import annotations

# KEYS: state, log, epoch, archive, quarantine, [rooms].  ARGV: room, snapshot, fence
# ('' = unfenced), retrying ('1' after a lost reply), then seq and data of each entry.
SAVE = """
local state, stream, epoch_key, rooms = KEYS[1], KEYS[2], KEYS[3], KEYS[6]
local room, snapshot, fence, retrying = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if redis.call('EXISTS', KEYS[4], KEYS[5]) > 0 then
  return redis.error_reply('CLOSED room ' .. room ..
    ' is retired or quarantined: its log is closed')
end
if fence ~= '' then
  local epoch = redis.call('GET', epoch_key)
  if not epoch then
    return redis.error_reply('FENCED room ' .. room .. ': fence ' .. fence ..
      ' but the room has no owner epoch')
  end
  if tonumber(epoch) ~= tonumber(fence) then
    return redis.error_reply('FENCED room ' .. room .. ': fence ' .. fence ..
      ' is stale, the room is at epoch ' .. epoch)
  end
end
local last = tonumber(redis.call('HGET', state, 'seq') or '-1')
if #ARGV > 4 and tonumber(ARGV[5]) <= last then
  if retrying == '1' and redis.call('HGET', state, 'snapshot') == snapshot then
    local same = true
    for i = 5, #ARGV, 2 do
      local id = ARGV[i] .. '-1'
      local found = redis.call('XRANGE', stream, id, id)
      if #found ~= 1 or found[1][2][2] ~= ARGV[i + 1] then
        same = false
        break
      end
    end
    if same then
      return 'APPLIED'
    end
  end
  return redis.error_reply('SEQ room ' .. room .. ': log entry ' .. ARGV[5] ..
    ' does not follow ' .. last)
end
for i = 5, #ARGV, 2 do
  redis.call('XADD', stream, ARGV[i] .. '-1', 'd', ARGV[i + 1])
end
redis.call('HSET', state, 'snapshot', snapshot)
if #ARGV > 4 then
  redis.call('HSET', state, 'seq', ARGV[#ARGV - 1])
end
if fence ~= '' then
  redis.call('HSET', state, 'fence', fence)
end
if rooms then
  redis.call('SADD', rooms, room)
end
return 'OK'
"""

# KEYS: state, log, archive, epoch, [rooms].  ARGV: room, epoch kept (ms).  The lease
# stays (it expires), and the epoch for a day: a stale owner must stay fenced out of a
# deleted room, and once the epoch has gone its saves are refused anyway ("no owner").
DELETE = """
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('PEXPIRE', KEYS[4], ARGV[2])
if KEYS[5] then
  redis.call('SREM', KEYS[5], ARGV[1])
end
return 'OK'
"""

# KEYS: state, log, epoch, archive, [rooms].  ARGV: room, sha1 of the snapshot read, the
# seq read ('' for none), the archive, its time to live (ms, 0 = none), epoch kept (ms).
# Swapped in only if nothing was saved since the room was read ('CHANGED': read again).
RETIRE = """
local snapshot = redis.call('HGET', KEYS[1], 'snapshot')
if not snapshot then
  return 'GONE'
end
if redis.sha1hex(snapshot) ~= ARGV[2] or (redis.call('HGET', KEYS[1], 'seq') or '') ~= ARGV[3] then
  return 'CHANGED'
end
if tonumber(ARGV[5]) > 0 then
  redis.call('SET', KEYS[4], ARGV[4], 'PX', ARGV[5])
else
  redis.call('SET', KEYS[4], ARGV[4])
end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('PEXPIRE', KEYS[3], ARGV[6])
if KEYS[5] then
  redis.call('SREM', KEYS[5], ARGV[1])
end
return 'OK'
"""

# KEYS: state, log, archive, quarantine, [rooms].  ARGV: room, reason, time (ms), form,
# the room's bytes as they were.
QUARANTINE = """
redis.call('HSET', KEYS[4], 'reason', ARGV[2], 'at', ARGV[3], 'form', ARGV[4], 'data', ARGV[5])
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
if KEYS[5] then
  redis.call('SREM', KEYS[5], ARGV[1])
end
return 'OK'
"""

#: How long a closed room's fencing epoch outlives it (see `DELETE`).
EPOCH_KEPT_MS = 86_400_000
