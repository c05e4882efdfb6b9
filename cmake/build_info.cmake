# build_info.cmake — run at every build (cmake -P): writes build_info.h with
# the project version and `git describe --always --dirty --tags` of the
# source tree, rewriting the file only when the text changes, so the command
# relinks only after a commit or a change of dirty state.
# Inputs: SRC (source dir), OUT (the header), VERSION, TEMPLATE.
set(PIPS_GIT_DESCRIBE "")
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS ${SRC}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty --tags
    WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE PIPS_GIT_DESCRIBE
    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
set(PROJECT_VERSION ${VERSION})
configure_file(${TEMPLATE} ${OUT} @ONLY)
