#include "source/compile_db.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/file_io.h"
#include "lex/lexer.h"

namespace gpuport::source {
namespace fs = std::filesystem;

std::vector<std::string> split_command_line(const std::string& command) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\\' && i + 1 < command.size()) {
      word += command[++i];
    } else if (c == '\'') {
      const auto end = command.find('\'', i + 1);
      word += command.substr(i + 1, end == std::string::npos ? std::string::npos : end - i - 1);
      i = end == std::string::npos ? command.size() : end;
    } else if (c == '"') {
      for (++i; i < command.size() && command[i] != '"'; ++i) {
        if (command[i] == '\\' && i + 1 < command.size() &&
            std::string_view("$`\"\\\n").find(command[i + 1]) != std::string_view::npos)
          ++i;
        word += command[i];
      }
    } else {
      word += c;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

namespace {

Diagnostic db_error(const fs::path& file, std::string message, std::uint32_t line = 0) {
  Diagnostic d;
  d.code = "bad-compile-database";
  d.message = std::move(message);
  d.location.file = file.string();
  d.location.line = line;
  return d;
}

fs::path normal(const fs::path& p) {
  std::error_code ec;
  auto w = fs::weakly_canonical(p, ec);
  return ec ? p.lexically_normal() : w;
}

bool covers(const fs::path& input, const fs::path& file) {
  if (input == file) return true;
  auto [in_end, file_it] = std::mismatch(input.begin(), input.end(), file.begin(), file.end());
  return in_end == input.end() && file_it != file.end();
}

}  // namespace

Result<CompileFlags> read_compile_flags(const fs::path& database, const std::vector<fs::path>& inputs) {
  std::error_code ec;
  const fs::path file = fs::is_directory(database, ec) ? database / "compile_commands.json" : database;
  auto text = read_file(file, 256u << 20);
  if (!text) return Result<CompileFlags>::failure(text.diagnostics());
  nlohmann::json db;
  try {
    db = nlohmann::json::parse(*text);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann reports the 1-based offset of the last byte read; the diagnostic names its line
    // and column, and the reason without nlohmann's own prefix and position.
    const std::size_t at = std::min<std::size_t>(e.byte ? e.byte - 1 : 0, text->size());
    const auto before = std::string_view(*text).substr(0, at);
    const auto line = static_cast<std::uint32_t>(1 + std::count(before.begin(), before.end(), '\n'));
    const auto nl = before.rfind('\n');
    const auto column = static_cast<std::uint32_t>(nl == std::string_view::npos ? at + 1 : at - nl);
    std::string why = e.what();
    if (auto c = why.find("column "); c != std::string::npos && why.find(": ", c) != std::string::npos)
      why = why.substr(why.find(": ", c) + 2);
    auto d = db_error(file, fmt::format("not valid JSON: {}", why), line);
    d.location.column = column;
    return d;
  }
  if (!db.is_array()) return db_error(file, "a compilation database is a JSON array of entries");
  std::vector<fs::path> wanted;
  for (const auto& i : inputs) wanted.push_back(normal(fs::absolute(i, ec)));
  CompileFlags flags;
  for (std::size_t n = 0; n < db.size(); ++n) {
    const auto& entry = db[n];
    if (!entry.is_object() || !entry.contains("directory") || !entry["directory"].is_string() || !entry.contains("file") ||
        !entry["file"].is_string() || !(entry.contains("arguments") || entry.contains("command")))
      return db_error(file, fmt::format("entry {} lacks \"directory\", \"file\" or \"arguments\"/\"command\"", n));
    const fs::path dir = entry["directory"].get<std::string>();
    const fs::path source = normal(dir / entry["file"].get<std::string>());
    if (std::none_of(wanted.begin(), wanted.end(), [&](const fs::path& w) { return covers(w, source); })) continue;
    ++flags.matched;
    std::vector<std::string> args;
    if (entry.contains("arguments") && entry["arguments"].is_array()) {
      for (const auto& a : entry["arguments"])
        if (a.is_string()) args.push_back(a.get<std::string>());
    } else if (entry["command"].is_string()) {
      args = split_command_line(entry["command"].get<std::string>());
    } else {
      return db_error(file, fmt::format("entry {}: \"arguments\" must be an array of strings, \"command\" a string", n));
    }
    CompileFlags& mine = flags.by_file[source];
    auto add = [](auto& list, auto value) {
      if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(std::move(value));
    };
    for (std::size_t k = 0; k < args.size(); ++k) {
      const std::string& a = args[k];
      auto value = [&](std::string_view flag) -> std::string {
        if (a.size() > flag.size()) return a.substr(a[flag.size()] == '=' ? flag.size() + 1 : flag.size());
        return k + 1 < args.size() ? args[++k] : std::string();
      };
      auto path_of = [&](const std::string& v) { return normal(fs::path(v).is_absolute() ? fs::path(v) : dir / v); };
      if (a.starts_with("-I") || a == "-isystem" || a == "-iquote") {
        const std::string v = a.starts_with("-I") ? value("-I") : (k + 1 < args.size() ? args[++k] : std::string());
        if (v.empty()) continue;
        add(flags.include_dirs, path_of(v));
        add(mine.include_dirs, path_of(v));
      } else if (a == "-include" || a.starts_with("--pre-include")) {
        const std::string v = a == "-include" ? (k + 1 < args.size() ? args[++k] : std::string()) : value("--pre-include");
        if (v.empty()) continue;
        add(flags.forced_includes, path_of(v));
        add(mine.forced_includes, path_of(v));
      } else if (a.starts_with("-std=") || a.starts_with("--std=")) {
        mine.standard = "-std=" + a.substr(a.find('=') + 1);
      } else if (a == "-std" || a == "--std") {
        if (k + 1 < args.size()) mine.standard = "-std=" + args[++k];
      } else if (a.starts_with("-D")) {
        if (auto v = value("-D"); !v.empty()) add(flags.defines, v), add(mine.defines, v);
      } else if (a.starts_with("-U")) {
        if (auto v = value("-U"); !v.empty()) add(flags.undefines, v), add(mine.undefines, v);
      }
    }
  }
  return flags;
}

std::vector<std::string> header_defines(const fs::path& header) {
  std::vector<std::string> out;
  auto text = read_file(header, 16u << 20);
  if (!text) return out;
  const auto tokens = lex::lex(*text);
  std::vector<const lex::Token*> sig;
  for (const auto& t : tokens.tokens())
    if (t.kind != lex::TokenKind::whitespace && t.kind != lex::TokenKind::newline && t.kind != lex::TokenKind::line_comment &&
        t.kind != lex::TokenKind::block_comment && t.kind != lex::TokenKind::line_continuation)
      sig.push_back(&t);
  auto text_of = [&](const lex::Token* t) { return std::string_view(*text).substr(t->offset, t->length); };
  int depth = 0;  // only unconditional definitions count
  for (std::size_t i = 0; i + 1 < sig.size(); ++i) {
    if (!sig[i]->has(lex::kDirectiveHash)) continue;
    const std::string_view d = text_of(sig[i + 1]);
    if (d == "if" || d == "ifdef" || d == "ifndef") ++depth;
    else if (d == "endif") --depth;
    // The include guard's own #ifndef is the one group a header's definitions sit in.
    if (d != "define" || depth > 1 || i + 2 >= sig.size() || !sig[i + 2]->has(lex::kInDirective)) continue;
    const lex::Token* name = sig[i + 2];
    if (name->kind != lex::TokenKind::identifier) continue;
    const std::size_t after = name->offset + name->length;
    if (after < text->size() && (*text)[after] == '(') continue;  // function-like
    std::string value;
    for (std::size_t k = i + 3; k < sig.size() && sig[k]->has(lex::kInDirective) && !sig[k]->has(lex::kDirectiveHash); ++k)
      value += (value.empty() ? "" : " ") + std::string(text_of(sig[k]));
    out.push_back(value.empty() ? std::string(text_of(name)) : fmt::format("{}={}", text_of(name), value));
  }
  return out;
}

}  // namespace gpuport::source
