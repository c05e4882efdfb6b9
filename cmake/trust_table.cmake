# trust_table.cmake — generates trust_table.h, the lab's table of agents
# measured against greedy at three seats and more, from the N-seat ladder
# table of docs/ai.md ("### The ladder": its first table), so the figures
# live in one place. Rows kept: a lone agent against a field of greedy.
# Usage: cmake -DIN=docs/ai.md -DOUT=generated/trust_table.h -P trust_table.cmake
file(STRINGS "${IN}" lines)
set(in_section OFF)
set(seen_rows OFF)
set(rows "")
set(count 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^### The ladder")
    set(in_section ON)
  elseif(in_section AND line MATCHES "^#")
    break()
  elseif(in_section AND line MATCHES "^\\|")
    set(seen_rows ON)
    # | game | seats | lone | greedy xK | games | wins | rate [lo, hi] | 1/n | ...
    if(line MATCHES "^\\| ([a-z]+) \\| ([0-9]+) \\| ([^|]+) \\| greedy x[0-9]+ \\| ([0-9]+) \\| ([0-9]+) \\| ([0-9.]+) \\[([0-9.]+), ([0-9.]+)\\] \\| ([0-9.]+) \\|")
      string(STRIP "${CMAKE_MATCH_3}" spec)
      string(APPEND rows "    {\"${CMAKE_MATCH_1}\", ${CMAKE_MATCH_2}, \"${spec}\", ${CMAKE_MATCH_4}, ${CMAKE_MATCH_5}, ${CMAKE_MATCH_6}, ${CMAKE_MATCH_7}, ${CMAKE_MATCH_8}, ${CMAKE_MATCH_9}},\n")
      math(EXPR count "${count} + 1")
    endif()
  elseif(in_section AND seen_rows)
    break() # the end of the first table
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "trust_table.cmake: no row of a lone agent against greedy in the ladder table of ${IN}")
endif()
set(text "/* Generated from docs/ai.md (\"The ladder\") by cmake/trust_table.cmake: do not edit. */\n")
string(APPEND text "static const trust_entry measured[] = {\n${rows}};\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE "${OUT}" "${text}")
endif()
