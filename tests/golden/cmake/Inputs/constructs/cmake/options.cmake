# Options shared by the project's targets.
option(CONSTRUCTS_FAST "fast math" ON)
if(CONSTRUCTS_FAST)
  add_compile_options($<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math>)
endif()
find_package(CUDA REQUIRED)
cuda_add_executable(legacy src/legacy.cu)
