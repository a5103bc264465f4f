#include <cerrno>
#include <cstdio>

#include "cli/commands.h"

namespace gpuport::cli {
namespace {
int first_stdout_error = 0;
}  // namespace

void write_stdout(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() && first_stdout_error == 0)
    first_stdout_error = errno != 0 ? errno : EIO;
}

int finish_stdout() {
  errno = 0;
  if (std::fflush(stdout) != 0 && first_stdout_error == 0) first_stdout_error = errno != 0 ? errno : EIO;
  if (std::ferror(stdout) && first_stdout_error == 0) first_stdout_error = EIO;
  return first_stdout_error;
}

}  // namespace gpuport::cli
