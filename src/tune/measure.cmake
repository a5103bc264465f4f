# The GPU half of `gpuport tune` (owned by tune/device/ and tune/capture_format.*, tune/measure_stats.*):
# the capture file format and the harness's statistics/comparison/TSV, which the unit tests cover
# here, and the harness itself, a standalone program carried to the GPU machine.
#
# gpuport_tune_measure needs no other gpuport library (only common/diagnostic.h's header-only
# Result), so that the harness links against nothing but libc: the GPU machine has no libfmt.
set(GPUPORT_TUNE_MEASURE_SOURCES ${CMAKE_CURRENT_LIST_DIR}/capture_format.cc ${CMAKE_CURRENT_LIST_DIR}/measure_stats.cc)
add_library(gpuport_tune_measure STATIC ${GPUPORT_TUNE_MEASURE_SOURCES})
target_include_directories(gpuport_tune_measure PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
# gpuport_tune (whose `--measure` reads measurements.tsv) links this library.
target_link_libraries(gpuport_tune PUBLIC gpuport_tune_measure)

# The measurement harness (tune/device/harness.cc): the CUDA driver is loaded at run time, so it
# builds and runs without CUDA and says "no CUDA driver" (exit 3) where there is none. libstdc++
# and libgcc are linked statically so that the binary needs only libc on the GPU machine (not in
# sanitizer builds, whose runtimes expect the shared ones).
add_executable(gpuport-tune-harness ${CMAKE_CURRENT_LIST_DIR}/device/harness.cc ${CMAKE_CURRENT_LIST_DIR}/device/driver_api.cc)
target_link_libraries(gpuport-tune-harness PRIVATE gpuport_tune_measure ${CMAKE_DL_LIBS})
if(NOT GPUPORT_SANITIZE AND NOT GPUPORT_FUZZ)
  target_link_options(gpuport-tune-harness PRIVATE -static-libstdc++ -static-libgcc)
endif()
set_target_properties(gpuport-tune-harness PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)

# The unit tests (tests/unit/tune_measure_test.cc) run the harness binary, also end to end over a
# fake driver (tests/unit/tune_fake_cuda_driver.cc, loaded through GPUPORT_TUNE_LIBCUDA).
# gpuport_tune_tests is defined later (tests/), so this runs once the whole project has been read.
function(gpuport_tune_tests_need_harness)
  if(TARGET gpuport_tune_tests)
    add_library(gpuport_tune_fake_cuda MODULE ${PROJECT_SOURCE_DIR}/tests/unit/tune_fake_cuda_driver.cc)
    set_target_properties(gpuport_tune_fake_cuda PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/tune-fake-cuda)
    add_dependencies(gpuport_tune_tests gpuport-tune-harness gpuport_tune_fake_cuda)
  endif()
endfunction()
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL gpuport_tune_tests_need_harness)
