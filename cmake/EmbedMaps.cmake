# Compiles the mapping tables (data/maps/**/*.tsv) into the library, so the gpuport binary is
# self-contained; `--maps DIR` still loads tables from a folder at run time.
file(GLOB_RECURSE GPUPORT_MAP_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/data/maps/*.tsv)
list(SORT GPUPORT_MAP_FILES)
set(GPUPORT_EMBEDDED_MAPS ${PROJECT_BINARY_DIR}/generated/embedded_maps.cc)
add_custom_command(
  OUTPUT ${GPUPORT_EMBEDDED_MAPS}
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${GPUPORT_EMBEDDED_MAPS} -DROOT=${PROJECT_SOURCE_DIR}/data/maps
          "-DFILES=${GPUPORT_MAP_FILES}" -P ${PROJECT_SOURCE_DIR}/cmake/embed_maps.cmake
  DEPENDS ${GPUPORT_MAP_FILES} ${PROJECT_SOURCE_DIR}/cmake/embed_maps.cmake
  COMMENT "Embedding API mapping tables"
  VERBATIM)
