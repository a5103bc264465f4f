// How nvcc packs a device printf's arguments for vprintf, read back by the format string: each
// argument at its natural alignment in the buffer (int-sized conversions 4 bytes; l/ll/j/z/t/L
// integers, pointers, strings and doubles 8, floats having been promoted to double; '*' widths and
// precisions 4). Plain C++ for every target: the amdgcn printf hook and the unit tests use it.
#pragma once

#include "lift/semantics/sass.h"

namespace gpuport_printf {

inline sass_u64 string_length(const char* s) {
  sass_u64 n = 0;
  while (s[n] != 0) ++n;
  return n;
}

inline bool one_of(char c, const char* set) {
  for (; *set != 0; ++set)
    if (*set == c) return true;
  return false;
}

// Calls sink(value, is_string) for each argument `format` takes from `arguments`, in order (4-byte
// arguments zero-extended; a string is its pointer); returns how many. A '%' not followed by a
// complete conversion takes nothing and prints as written (as the host's formatter does).
template <typename Sink>
inline sass_u32 walk_arguments(const char* format, const char* arguments, Sink&& sink) {
  sass_u32 count = 0;
  sass_u64 offset = 0;
  auto take = [&](sass_u64 bytes) {
    offset = (offset + bytes - 1) & ~(bytes - 1);
    sass_u64 value = 0;
    if (bytes == 8) {
      __builtin_memcpy(&value, arguments + offset, 8);
    } else {
      sass_u32 word = 0;
      __builtin_memcpy(&word, arguments + offset, 4);
      value = word;
    }
    offset += bytes;
    return value;
  };
  for (const char* p = format; *p != 0;) {
    if (*p++ != '%') continue;
    if (*p == '%') {
      ++p;
      continue;
    }
    const char* start = p;
    while (*p != 0 && one_of(*p, "-+ #0'")) ++p;
    int stars = 0;
    if (*p == '*') ++p, ++stars;
    while (*p >= '0' && *p <= '9') ++p;
    if (*p == '.') {
      ++p;
      if (*p == '*') ++p, ++stars;
      while (*p >= '0' && *p <= '9') ++p;
    }
    bool wide = false;
    for (; *p != 0 && one_of(*p, "hljztL"); ++p) wide = wide || *p != 'h';
    const char conversion = *p;
    if (conversion == 0 || !one_of(conversion, "diouxXcfFeEgGaAspn")) {
      p = start;
      continue;
    }
    ++p;
    for (int i = 0; i < stars; ++i, ++count) sink(take(4), false);
    ++count;
    if (conversion == 's') sink(take(8), true);
    else if (one_of(conversion, "fFeEgGaApn") || (wide && conversion != 'c')) sink(take(8), false);
    else sink(take(4), false);
  }
  return count;
}

}  // namespace gpuport_printf
