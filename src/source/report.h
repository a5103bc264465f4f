// The report of a translation run, in the three forms users ask for: compiler-style text for
// terminals and logs, JSON for scripts, SARIF 2.1.0 for code-scanning tools.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/diagnostic.h"

namespace gpuport::source {

// A compile check of one translated unit for one target (filled by verify/).
struct CheckOutcome {
  std::string target;   // "gfx1100" or "nvidia"
  bool skipped = false;  // tool missing: says why in message
  bool passed = false;
  std::string command;
  std::string message;  // compiler output (trimmed) or the reason for skipping
};

struct FileReport {
  std::string input;
  std::string output;      // empty when nothing was written (stdout); a rejected file's unchanged copy in -o's tree
  bool translated = false;  // a source file that went through the translator
  bool copied = false;      // a non-source file copied as is
  bool rejected = false;    // input refused (binary, bad encoding, lexer error, I/O)
  bool changed = false;     // the translation differs from the input
  std::size_t rewrites = 0;
  std::vector<Diagnostic> findings;
  std::vector<CheckOutcome> checks;
};

struct TranslationReport {
  std::vector<FileReport> files;
  std::vector<Diagnostic> errors;  // not tied to one translated file: usage, unreadable folders
  bool io_failure = false;         // any I/O error (exit code 2)

  std::size_t count(Severity severity) const;
  std::size_t failed_checks() const;
};

std::string format_text(const TranslationReport& report, bool show_notes = true);
nlohmann::json to_json(const TranslationReport& report);
nlohmann::json to_sarif(const TranslationReport& report);

}  // namespace gpuport::source
