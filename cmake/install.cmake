# install.cmake — what `cmake --install build --prefix P` puts under P: the
# pips command, libpips (static and shared), its public headers, pips.pc,
# the man page and shell completion (generated from src/cli/help.c by
# pips_docgen, so they match `pips --help`), the web UI's files (an installed
# `pips serve` finds them in PREFIX/share/pips/web) and the docs. The server
# library (pips_server) is internal to `pips serve` and not installed.

# pips_docgen prints the man page and the completion scripts from the
# help table; the normal build runs it, so CI builds the man page.
add_executable(pips_docgen src/cli/gen/docgen.c src/cli/help.c)
target_include_directories(pips_docgen PRIVATE src)
target_compile_definitions(pips_docgen PRIVATE _POSIX_C_SOURCE=200809L)
target_link_libraries(pips_docgen PRIVATE pips)
set(PIPS_GEN_DIR ${CMAKE_BINARY_DIR}/share)
foreach(kind man bash zsh)
  if(kind STREQUAL "man")
    set(out ${PIPS_GEN_DIR}/pips.1)
  elseif(kind STREQUAL "bash")
    set(out ${PIPS_GEN_DIR}/pips.bash)
  else()
    set(out ${PIPS_GEN_DIR}/_pips)
  endif()
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PIPS_GEN_DIR}
    COMMAND pips_docgen ${kind} ${PROJECT_VERSION} > ${out}
    DEPENDS pips_docgen VERBATIM)
  list(APPEND PIPS_GENERATED_DOCS ${out})
endforeach()
add_custom_target(pips_docs ALL DEPENDS ${PIPS_GENERATED_DOCS})

install(TARGETS pips-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ${PIPS_LIBS}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT Development)
install(FILES include/pips/core.h include/pips/game.h include/pips/agent.h
  include/pips/match.h include/pips/lab.h ${CMAKE_BINARY_DIR}/include/pips/version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pips)
# pips.pc finds its prefix from its own place (${pcfiledir}), so an install
# moved or made with --prefix at install time still points at itself.
file(RELATIVE_PATH PIPS_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig
  ${CMAKE_INSTALL_PREFIX})
set(PIPS_PC_LIBS_PRIVATE "-lpthread -lm")
if(PIPS_MPI) # an MPI build's libpips calls MPI: static links need its libraries
  list(JOIN MPI_C_LIBRARIES " " PIPS_PC_MPI_LIBS)
  string(APPEND PIPS_PC_LIBS_PRIVATE " ${PIPS_PC_MPI_LIBS}")
endif()
configure_file(cmake/pips.pc.in ${CMAKE_BINARY_DIR}/pips.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/pips.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES ${PIPS_GEN_DIR}/pips.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PIPS_GEN_DIR}/pips.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
  RENAME pips)
install(FILES ${PIPS_GEN_DIR}/_pips DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
install(DIRECTORY web/ DESTINATION ${CMAKE_INSTALL_DATADIR}/pips/web)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The install itself is tested: into a temporary prefix, then a C program
# built with pkg-config (tests/install/install.sh).
set(PIPS_INSTALL_TEST_CFLAGS "")
if(PIPS_SANITIZE)
  set(PIPS_INSTALL_TEST_CFLAGS "-fsanitize=address,undefined")
endif()
if(PIPS_SHARED)
  add_test(NAME install_pkgconfig COMMAND bash ${CMAKE_SOURCE_DIR}/tests/install/install.sh
    ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR} "${PIPS_INSTALL_TEST_CFLAGS}")
  set_tests_properties(install_pkgconfig PROPERTIES TIMEOUT 300)
endif()
