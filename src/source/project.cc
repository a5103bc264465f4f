#include "source/project.h"

#include <algorithm>
#include <atomic>
#include <set>
#include <thread>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "common/file_io.h"
#include "lex/lexer.h"

namespace gpuport::source {
namespace fs = std::filesystem;

bool is_source_file(const fs::path& path) {
  static const std::set<std::string> kExtensions = {".cu",  ".cuh", ".hip", ".cpp", ".cxx", ".cc", ".c",   ".h",
                                                    ".hpp", ".hh",  ".hxx", ".inl", ".inc", ".ipp", ".tpp", ".cl"};
  return kExtensions.count(path.extension().string()) != 0;
}

namespace {

struct WorkItem {
  fs::path input;
  bool source = true;
  // The text read while following the file's includes, kept so that it is not read again.
  std::optional<std::string> content;
};

// Texts kept from the include scan, at most this much in all (the rest is read again).
constexpr std::size_t kPrereadLimit = std::size_t{256} << 20;

Diagnostic finding(const fs::path& path, Severity severity, std::string code, std::string message) {
  Diagnostic d;
  d.severity = severity;
  d.code = std::move(code);
  d.message = std::move(message);
  d.location.file = path.string();
  return d;
}

Diagnostic io_diagnostic(const fs::path& path, std::string message) {
  return finding(path, Severity::error, "io-error", std::move(message));
}

// `path` lies in `folder` or below (both canonical).
bool is_within(const fs::path& path, const fs::path& folder) {
  auto p = path.begin();
  for (auto f = folder.begin(); f != folder.end(); ++f, ++p)
    if (p == path.end() || *p != *f) return false;
  return true;
}

// FILE.gpuport.bak, else FILE.gpuport.bak.1, .2, ...: the first backup (the original) is never
// replaced by a later one.
fs::path backup_name(const fs::path& file, unsigned n) {
  fs::path b = file;
  b += n == 0 ? ".gpuport.bak" : ".gpuport.bak." + std::to_string(n);
  return b;
}

// Paths in reports are spelled relative to the working folder when the file lies below it
// (as compilers print them), absolute otherwise.
std::string display_path(const fs::path& p, const fs::path& cwd) {
  if (cwd.empty()) return p.string();
  fs::path rel = p.lexically_relative(cwd);
  if (rel.empty() || *rel.begin() == "..") return p.string();
  return rel.string();
}

fs::path common_ancestor(const std::vector<fs::path>& dirs) {
  if (dirs.empty()) return fs::current_path();
  fs::path common = dirs.front();
  for (const auto& d : dirs) {
    fs::path next;
    auto a = common.begin(), b = d.begin();
    for (; a != common.end() && b != d.end() && *a == *b; ++a, ++b) next /= *a;
    common = next;
  }
  return common;
}

}  // namespace

std::vector<fs::path> local_includes(const fs::path& file, const std::string& text,
                                     const std::vector<fs::path>& include_dirs) {
  std::vector<fs::path> out;
  for (const auto& t : lex::header_names(text)) {
    const std::string_view h(text.data() + t.offset, t.length);
    if (h.size() < 2 || h.front() != '"') continue;
    const fs::path rel(std::string(h.substr(1, h.size() - 2)));
    std::vector<fs::path> candidates = {file.parent_path() / rel};
    for (const auto& d : include_dirs) candidates.push_back(d / rel);
    for (const auto& c : candidates) {
      std::error_code ec;
      if (fs::is_regular_file(c, ec) && is_source_file(c)) {
        out.push_back(fs::weakly_canonical(c, ec));
        break;
      }
    }
  }
  return out;
}

ProjectResult translate_project(const std::vector<fs::path>& inputs, const maps::ApiMap& map,
                                const ProjectOptions& options, const ProgressFunction& progress) {
  ProjectResult result;
  auto& report = result.report;
  std::vector<WorkItem> items;
  std::set<fs::path> seen;
  std::vector<fs::path> roots;
  std::vector<fs::path> tree_roots;  // folder inputs, canonical
  std::vector<fs::path> file_inputs;

  std::error_code output_ec;
  const fs::path output_root = options.mode == OutputMode::directory
                                   ? fs::weakly_canonical(fs::absolute(options.output_dir), output_ec)
                                   : fs::path();
  auto add_item = [&](const fs::path& p, bool source) {
    if (seen.insert(p).second) items.push_back({p, source});
  };

  for (const auto& raw : inputs) {
    std::error_code ec;
    const fs::path input = fs::weakly_canonical(fs::absolute(raw, ec), ec);
    const auto status = fs::status(input, ec);
    if (ec || !fs::exists(status)) {
      report.errors.push_back(io_diagnostic(raw, "no such file or folder"));
      report.io_failure = true;
      continue;
    }
    if (fs::is_directory(status)) {
      roots.push_back(input);
      tree_roots.push_back(input);
      std::vector<fs::path> found;
      auto it = fs::recursive_directory_iterator(input, fs::directory_options::skip_permission_denied, ec);
      if (ec) {
        report.errors.push_back(io_diagnostic(raw, "cannot read folder: " + ec.message()));
        report.io_failure = true;
        continue;
      }
      for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) {
          report.errors.push_back(io_diagnostic(it->path(), "cannot read folder: " + ec.message()));
          report.io_failure = true;
          ec.clear();
          continue;
        }
        std::error_code ec2;
        if (it->is_symlink(ec2)) {
          // Links are followed to files, never to folders; a broken one is said, not skipped quietly.
          std::error_code target_ec;
          const auto target = fs::status(it->path(), target_ec);
          if (target_ec || !fs::exists(target)) {
            const bool loop = target_ec.value() == ELOOP;
            report.errors.push_back(finding(it->path(), Severity::warning, loop ? "symlink-loop" : "dangling-symlink",
                                            loop ? "symbolic link loop: skipped" : "dangling symbolic link: skipped"));
          } else if (fs::is_directory(target)) {
            report.errors.push_back(finding(it->path(), Severity::note, "symlink-folder",
                                            "symbolic link to a folder: not followed"));
          } else if (fs::is_regular_file(target)) {
            found.push_back(it->path());
          }
          continue;
        }
        if (it->is_directory(ec2)) {
          // An unreadable sub-folder would be skipped silently by the iterator: say so.
          if (::access(it->path().c_str(), R_OK | X_OK) != 0) {
            report.errors.push_back(io_diagnostic(it->path(), "cannot read folder: permission denied"));
            report.io_failure = true;
          }
          // Never walk into version-control data or into the output tree itself
          // (`gpuport translate . -o out` run twice must not translate out/).
          if (it->path().filename() == ".git" || (!output_root.empty() && it->path() == output_root))
            it.disable_recursion_pending();
          continue;
        }
        if (temporary_file_writer(it->path().filename().native())) continue;  // a write in progress or left over
        if (it->is_regular_file(ec2)) {
          found.push_back(it->path());
        } else {
          report.errors.push_back(finding(it->path(), Severity::note, "not-regular-file",
                                          "not a regular file (FIFO, socket or device): skipped"));
        }
      }
      std::sort(found.begin(), found.end());
      for (const auto& f : found) {
        // HIP -> CUDA: gpuport's own prelude for CMake's HIP language has no place in a CUDA tree.
        if (options.translate_build_files && options.cmake.to_cuda && f.filename() == "gpuport-hip.cmake") continue;
        add_item(f, is_source_file(f) || (options.translate_build_files && (is_build_file(f.filename().string()) ||
                                                                             (!options.cmake.to_cuda && is_makefile(f.filename().string())))));
      }
    } else {
      roots.push_back(input.parent_path());
      file_inputs.push_back(input);
      add_item(input, true);
    }
  }

  // Local headers that file inputs include, transitively.
  if (options.follow_includes) {
    std::map<fs::path, std::size_t> item_of;
    for (std::size_t i = 0; i < items.size(); ++i) item_of.emplace(items[i].input, i);
    std::size_t kept = 0;
    std::vector<fs::path> queue = file_inputs;
    while (!queue.empty()) {
      fs::path f = queue.back();
      queue.pop_back();
      auto content = read_file(f, options.max_file_size);
      if (!content) continue;  // reported when the file itself is translated
      for (const auto& inc : local_includes(f, *content, options.include_dirs)) {
        if (seen.count(inc)) continue;
        add_item(inc, true);
        item_of.emplace(inc, items.size() - 1);
        roots.push_back(inc.parent_path());
        queue.push_back(inc);
      }
      auto it = item_of.find(f);
      if (it != item_of.end() && kept + content->size() <= kPrereadLimit) {
        kept += content->size();
        items[it->second].content = std::move(*content);
      }
    }
  }

  result.root = common_ancestor(roots);
  report.files.resize(items.size());
  if (options.mode == OutputMode::memory) result.outputs.resize(items.size());
  std::vector<FileTranslation> translations(items.size());

  auto output_path = [&](const fs::path& input) {
    // Inputs and root are already canonical: a lexical relative path needs no system calls.
    return output_root / input.lexically_relative(result.root);
  };

  std::error_code cwd_ec;
  const fs::path cwd = fs::current_path(cwd_ec);

  // An output tree that would land on the inputs (`-o` naming their own folder, or a link to
  // it) would overwrite the originals without a backup: refuse before anything is written.
  if (options.mode == OutputMode::directory) {
    std::set<fs::path> inputs_canonical;
    for (const auto& item : items) {
      std::error_code ec;
      // Every input's folder is already canonical (the roots are, and walks do not follow
      // links to folders): only a link to a file needs resolving.
      inputs_canonical.insert(fs::is_symlink(item.input, ec) ? fs::weakly_canonical(item.input, ec) : item.input);
    }
    std::map<fs::path, fs::path> folder_canonical;  // output folder -> where it really is
    for (const auto& item : items) {
      const fs::path out = output_path(item.input);
      auto [it, fresh] = folder_canonical.try_emplace(out.parent_path());
      if (fresh) {
        std::error_code ec;
        it->second = fs::weakly_canonical(out.parent_path(), ec);
      }
      if (inputs_canonical.count(it->second / out.filename())) {
        report.errors.push_back(io_diagnostic(
            display_path(item.input, cwd), fmt::format("-o {} would overwrite this input: name an output folder outside the inputs, or "
                                    "use --in-place (which keeps backups)",
                                    options.output_dir.string())));
        report.io_failure = true;
        report.files.clear();
        result.outputs.clear();
        return result;
      }
    }
  }

  // Temporary files that an interrupted run left in the folders this run writes to.
  if (options.mode == OutputMode::in_place || options.mode == OutputMode::directory) {
    std::set<fs::path> folders;
    for (const auto& item : items)
      folders.insert(options.mode == OutputMode::in_place ? item.input.parent_path()
                                                          : output_path(item.input).parent_path());
    std::size_t removed = 0;
    for (const auto& f : folders) removed += remove_stale_temporaries(f);
    if (removed > 0)
      report.errors.push_back(finding(options.mode == OutputMode::in_place ? result.root : output_root, Severity::note,
                                      "stale-temporaries",
                                      fmt::format("removed {} temporary file{} left by an interrupted gpuport run",
                                                  removed, removed == 1 ? "" : "s")));
  }

  // --in-place refuses what an atomic rename would break: files with several hard links (the
  // other names would keep the old text), and links to files outside the inputs (gpuport
  // writes only the files it was given). A link to a file inside them is left as it is; its
  // target is translated under its own name.
  auto in_place_refusal = [&](const fs::path& input) -> std::optional<Diagnostic> {
    struct stat st {};
    if (::lstat(input.c_str(), &st) != 0) return std::nullopt;  // read reports it
    if (S_ISLNK(st.st_mode)) {
      std::error_code ec;
      const fs::path target = fs::canonical(input, ec);
      for (const auto& r : tree_roots)
        if (!ec && is_within(target, r))
          return finding(display_path(input, cwd), Severity::note, "in-place-symlink",
                         fmt::format("symbolic link to {}: the target is translated, the link is kept",
                                     display_path(target, cwd)));
      return finding(display_path(input, cwd), Severity::error, "in-place-symlink-outside",
                     fmt::format("symbolic link to {}, outside the inputs: not rewritten (name the target itself to "
                                 "translate it)",
                                 ec ? std::string("?") : target.string()));
    }
    if (S_ISREG(st.st_mode) && st.st_nlink > 1)
      return finding(display_path(input, cwd), Severity::error, "in-place-hard-link",
                     fmt::format("the file has {} hard links; replacing it would leave the other names with the old "
                                 "text: not rewritten (translate with -o, or break the links first)",
                                 st.st_nlink));
    return std::nullopt;
  };

  // A file that cannot be translated still belongs to the -o tree: it is copied as it is (and
  // stays an error), so that the tree's build does not miss it.
  auto keep_unchanged = [&](const auto& item, auto& fr, std::vector<Diagnostic>& findings) {
    if (options.mode != OutputMode::directory) return;
    std::error_code ec;
    if (!fs::is_regular_file(item.input, ec)) return;
    const fs::path out = output_path(item.input);
    if (auto err = copy_file_atomic(item.input, out, {.durable = false, .keep_owner = false})) {
      findings.push_back(*err);
      return;
    }
    fr.output = display_path(out, cwd);
    findings.push_back(finding(fr.input, Severity::note, "kept-unchanged",
                                  fmt::format("not translated: copied unchanged to {}, so that the output tree has every file",
                                              fr.output)));
  };

  auto process = [&](std::size_t index) {
    auto& item = items[index];  // each index is processed by one thread alone
    auto& fr = report.files[index];
    fr.input = display_path(item.input, cwd);
    if (!item.source) {
      if (options.mode != OutputMode::directory) return;
      const fs::path out = output_path(item.input);
      if (auto err = copy_file_atomic(item.input, out, {.durable = false, .keep_owner = false})) {
        fr.rejected = true;
        fr.findings.push_back(*err);
        return;
      }
      fr.copied = true;
      fr.output = display_path(out, cwd);
      return;
    }
    if (options.mode == OutputMode::in_place) {
      if (auto refusal = in_place_refusal(item.input)) {
        fr.rejected = refusal->severity == Severity::error;
        fr.findings.push_back(std::move(*refusal));
        return;
      }
    }
    thread_local std::string content_buffer;  // reused: no fresh allocation per file
    const std::string* content = &content_buffer;
    if (item.content) {
      content = &*item.content;
    } else if (auto err = read_file_into(item.input, options.max_file_size, content_buffer)) {
      fr.rejected = true;
      err->location.file = fr.input;
      fr.findings.push_back(std::move(*err));
      keep_unchanged(item, fr, fr.findings);
      return;
    }
    auto& t = translations[index];
    const bool build_file = options.translate_build_files && is_build_file(item.input.filename().string());
    const TranslateOptions* translate_options = &options.translate;
    TranslateOptions own;  // the file's flags from a compilation database
    if (!options.file_preprocessor.empty()) {
      std::error_code canonical_ec;
      if (auto it = options.file_preprocessor.find(fs::weakly_canonical(item.input, canonical_ec)); it != options.file_preprocessor.end()) {
        own = options.translate;
        own.preprocessor = it->second;
        translate_options = &own;
      }
    }
    const bool makefile = options.translate_build_files && !options.cmake.to_cuda && is_makefile(item.input.filename().string());
    t = makefile     ? translate_makefile(fr.input, *content, options.cmake)
        : build_file ? translate_cmake(fr.input, *content, options.cmake)
                     : translate_text(fr.input, *content, map, *translate_options);
    fr.translated = t.ok;
    fr.rejected = !t.ok;
    fr.rewrites = t.rewrites;
    if (!t.ok) {
      keep_unchanged(item, fr, t.findings);  // after the reasons
      return;
    }
    fr.changed = t.output != *content;
    auto write_failed = [&](Diagnostic err) {
      // Nothing was written: the file counts as rejected, not as translated.
      t.findings.push_back(std::move(err));
      fr.translated = false;
      fr.rejected = true;
    };
    switch (options.mode) {
      case OutputMode::none:
        break;
      case OutputMode::memory:
        result.outputs[index] = std::move(t.output);
        break;
      case OutputMode::directory: {
        const fs::path out = output_path(item.input);
        // Outputs of a -o tree can be made again from the inputs: atomic, but not fsync'ed.
        // They take their input's mode (scripts stay executable, private files private).
        if (auto err = write_file_atomic(out, t.output,
                                         {.durable = false, .metadata_from = item.input, .keep_owner = false})) {
          write_failed(std::move(*err));
          break;
        }
        fr.output = display_path(out, cwd);
        if (t.needs_hip_prelude) {
          if (auto err = write_file_atomic(out.parent_path() / "gpuport-hip.cmake", hip_prelude_text(options.cmake), {.durable = false}))
            write_failed(std::move(*err));
        }
        break;
      }
      case OutputMode::in_place: {
        if (!fr.changed) break;
        if (options.backup) {
          // The first backup holds the original and is never replaced: a later run that
          // changes the file again keeps its input as FILE.gpuport.bak.N.
          std::optional<Diagnostic> err;
          for (unsigned n = 0; n < 1000; ++n) {
            err = write_file_atomic(backup_name(item.input, n), *content,
                                    {.metadata_from = item.input, .no_replace = true});
            if (!err || err->code != "file-exists") break;
          }
          if (err) {
            write_failed(std::move(*err));
            break;
          }
        }
        if (auto err = write_file_atomic(item.input, t.output)) {
          write_failed(std::move(*err));
          break;
        }
        fr.output = fr.input;
        if (t.needs_hip_prelude) {
          if (auto err = write_file_atomic(item.input.parent_path() / "gpuport-hip.cmake", hip_prelude_text(options.cmake)))
            write_failed(std::move(*err));
        }
        break;
      }
    }
    if (options.mode != OutputMode::memory) recycle_output(std::move(t.output));
    t.output = std::string();
    item.content.reset();
  };

  std::atomic<std::size_t> next{0}, done{0};
  auto worker = [&] {
    while (true) {
      const std::size_t i = next.fetch_add(1);
      if (i >= items.size()) return;
      process(i);
      const std::size_t d = done.fetch_add(1) + 1;
      if (progress) progress(d, items.size());
    }
  };
  const unsigned jobs = std::max(1u, std::min<unsigned>(options.jobs, static_cast<unsigned>(items.size())));
  if (jobs <= 1) {
    worker();
  } else {
    std::vector<std::jthread> pool;
    for (unsigned j = 0; j < jobs; ++j) pool.emplace_back(worker);
  }

  std::vector<FileTranslation*> all;
  for (auto& t : translations) all.push_back(&t);
  resolve_unknown_apis(all);
  for (std::size_t i = 0; i < items.size(); ++i) {
    auto& fr = report.files[i];
    for (auto& d : translations[i].findings) {
      if (d.code == "io-error") report.io_failure = true;
      fr.findings.push_back(std::move(d));
    }
    for (const auto& d : fr.findings)
      if (d.code == "io-error") report.io_failure = true;
  }
  return result;
}

}  // namespace gpuport::source
