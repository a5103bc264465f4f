#include "common/diagnostic.h"

#include <algorithm>

#include <fmt/format.h>

namespace gpuport {

std::string_view severity_name(Severity severity) {
  switch (severity) {
    case Severity::note: return "note";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "error";
}

std::string format_diagnostic(const Diagnostic& d) {
  std::string where = d.location.file;
  if (d.location.line > 0) where += fmt::format(":{}:{}", d.location.line, d.location.column);
  return fmt::format("{}: {}: {} [{}]", where, severity_name(d.severity), d.message, d.code);
}

bool has_errors(const std::vector<Diagnostic>& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::error; });
}

}  // namespace gpuport
