// compile_commands.json reading for `translate -p`.
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <gtest/gtest.h>

#include "source/compile_db.h"

namespace gpuport::source {
namespace {
namespace fs = std::filesystem;

TEST(CompileDb, SplitsCommandLinesAsAShellDoes) {
  EXPECT_EQ(split_command_line("nvcc -I inc  -DX=\"a b\" 'q r' s\\ t -c f.cu"),
            (std::vector<std::string>{"nvcc", "-I", "inc", "-DX=a b", "q r", "s t", "-c", "f.cu"}));
  EXPECT_EQ(split_command_line("a \"x\\\"y\\n\" ''"), (std::vector<std::string>{"a", "x\"y\\n", ""}));
  EXPECT_TRUE(split_command_line("  \t").empty());
}

class CompileDbFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fs::path("gpuport-compile-db-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "src" / "include");
    std::ofstream(dir_ / "src" / "a.cu") << "int a;\n";
    std::ofstream(dir_ / "src" / "b.cu") << "int b;\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& json) { std::ofstream(dir_ / "compile_commands.json") << json; }
  fs::path dir_;
};

TEST_F(CompileDbFiles, TakesTheFlagsOfTheEntriesForTheInputs) {
  const std::string src = (dir_ / "src").string();
  write("[{\"directory\": \"" + src + "\", \"command\": \"nvcc -I./include -DA=1 -U B -c a.cu\", \"file\": \"a.cu\"},\n"
        " {\"directory\": \"" + src + "\", \"arguments\": [\"nvcc\", \"-DOTHER\", \"b.cu\"], \"file\": \"b.cu\"}]\n");
  auto one = read_compile_flags(dir_, {dir_ / "src" / "a.cu"});
  ASSERT_TRUE(one.ok()) << format_diagnostic(one.diagnostics().front());
  EXPECT_EQ(one->matched, 1u);
  ASSERT_EQ(one->include_dirs.size(), 1u);
  EXPECT_EQ(one->include_dirs[0], fs::weakly_canonical(dir_ / "src" / "include"));
  EXPECT_EQ(one->defines, (std::vector<std::string>{"A=1"}));
  EXPECT_EQ(one->undefines, (std::vector<std::string>{"B"}));
  // A folder input covers the entries below it.
  auto all = read_compile_flags(dir_ / "compile_commands.json", {dir_ / "src"});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->matched, 2u);
  EXPECT_EQ(all->defines, (std::vector<std::string>{"A=1", "OTHER"}));
  auto none = read_compile_flags(dir_, {dir_ / "elsewhere.cu"});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->matched, 0u);
}

TEST_F(CompileDbFiles, BadDatabasesNameTheFileAndLine) {
  write("[\n {\"directory\": \"/x\",\n  \"file\": }\n]\n");
  auto bad = read_compile_flags(dir_, {dir_ / "src" / "a.cu"});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.diagnostics().front().code, "bad-compile-database");
  EXPECT_EQ(bad.diagnostics().front().location.file, (dir_ / "compile_commands.json").string());
  EXPECT_EQ(bad.diagnostics().front().location.line, 3u);
  write("[{\"directory\": \"/x\"}]");
  auto incomplete = read_compile_flags(dir_, {dir_ / "src" / "a.cu"});
  ASSERT_FALSE(incomplete.ok());
  EXPECT_NE(incomplete.diagnostics().front().message.find("entry 0"), std::string::npos);
  auto missing = read_compile_flags(dir_ / "nope.json", {dir_ / "src" / "a.cu"});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.diagnostics().front().location.file, (dir_ / "nope.json").string());
}

}  // namespace
}  // namespace gpuport::source
