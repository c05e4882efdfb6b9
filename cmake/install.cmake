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
set(PIPS_BASH_TEMPLATE ${CMAKE_SOURCE_DIR}/src/cli/gen/completion.bash)
foreach(kind man bash zsh fish)
  set(template "")
  if(kind STREQUAL "man")
    set(out ${PIPS_GEN_DIR}/pips.1)
  elseif(kind STREQUAL "bash")
    set(out ${PIPS_GEN_DIR}/pips.bash)
    set(template ${PIPS_BASH_TEMPLATE})
  elseif(kind STREQUAL "fish")
    set(out ${PIPS_GEN_DIR}/pips.fish)
    set(template ${CMAKE_SOURCE_DIR}/src/cli/gen/completion.fish)
  else()
    set(out ${PIPS_GEN_DIR}/_pips)
    set(template ${CMAKE_SOURCE_DIR}/src/cli/gen/completion.zsh)
  endif()
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PIPS_GEN_DIR}
    COMMAND pips_docgen ${kind} ${PROJECT_VERSION} ${template} > ${out}
    DEPENDS pips_docgen ${template} VERBATIM)
  list(APPEND PIPS_GENERATED_DOCS ${out})
endforeach()
add_custom_target(pips_docs ALL DEPENDS ${PIPS_GENERATED_DOCS})

install(TARGETS pips-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(PIPS_SHARED)
  install(TARGETS pips_shared
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT Development)
endif()
# The installed libpips.a is the static library's objects linked into one
# relocatable object whose hidden symbols (everything the public headers do
# not declare) are made local, so a static link sees pips_* and nothing else,
# as libpips.so does: a program's own nim_count neither clashes nor binds.
# (The fuzz build, which never installs, skips it.)
if(NOT PIPS_FUZZ)
set(PIPS_PUBLIC_OBJECT ${CMAKE_BINARY_DIR}/libpips-public.o)
set(PIPS_PUBLIC_ARCHIVE ${CMAKE_BINARY_DIR}/public/libpips.a)
add_custom_command(OUTPUT ${PIPS_PUBLIC_ARCHIVE}
  COMMAND ${CMAKE_LINKER} -r -o ${PIPS_PUBLIC_OBJECT} $<TARGET_OBJECTS:pips>
  COMMAND ${CMAKE_OBJCOPY} --localize-hidden ${PIPS_PUBLIC_OBJECT}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/public
  COMMAND ${CMAKE_COMMAND} -E rm -f ${PIPS_PUBLIC_ARCHIVE}
  COMMAND ${CMAKE_AR} rcs ${PIPS_PUBLIC_ARCHIVE} ${PIPS_PUBLIC_OBJECT}
  DEPENDS pips $<TARGET_OBJECTS:pips> COMMAND_EXPAND_LISTS VERBATIM)
add_custom_target(pips_public_archive ALL DEPENDS ${PIPS_PUBLIC_ARCHIVE})
install(FILES ${PIPS_PUBLIC_ARCHIVE} DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
# Every public header (include/pips/*.h) but the server's, which is internal
# to `pips serve`; tests/install checks each compiles alone as C11 and C++17.
file(GLOB PIPS_PUBLIC_HEADERS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/include/pips/*.h)
list(REMOVE_ITEM PIPS_PUBLIC_HEADERS ${CMAKE_SOURCE_DIR}/include/pips/server.h)
install(FILES ${PIPS_PUBLIC_HEADERS} ${CMAKE_BINARY_DIR}/include/pips/version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pips)
# pips.pc finds its prefix from its own place (${pcfiledir}), so an install
# moved or made with --prefix at install time still points at itself.
file(RELATIVE_PATH PIPS_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig
  ${CMAKE_INSTALL_PREFIX})
# Its dependencies are read from what the `pips` target links, at the end of
# configuring (so a library linked further down, like Lua, is included):
# pkg-config modules by name (jansson public, since pips/view.h hands out
# json_t; the rest private), other libraries as -l flags (pthread, m, MPI's).
set(PIPS_PC_PUBLIC_MODULES jansson)
function(pips_write_pc)
  get_target_property(deps pips INTERFACE_LINK_LIBRARIES)
  set(requires "")
  set(requires_private "")
  set(libs_private "")
  foreach(dep IN LISTS deps)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" dep "${dep}")
    if(dep MATCHES "^PkgConfig::(.+)$")
      set(module "${${CMAKE_MATCH_1}_MODULE_NAME}")
      if(NOT module)
        message(FATAL_ERROR "pips.pc: no pkg-config module name for ${dep}")
      elseif(module IN_LIST PIPS_PC_PUBLIC_MODULES)
        list(APPEND requires ${module})
      else()
        list(APPEND requires_private ${module})
      endif()
    elseif(PIPS_LUA_STATIC AND dep STREQUAL PIPS_LUA_STATIC) # the static Lua (CMakeLists.txt)
      list(APPEND requires_private ${LUA_MODULE_NAME})
    elseif(dep STREQUAL "Threads::Threads")
      list(APPEND libs_private -lpthread)
    elseif(dep MATCHES "^MPI::") # an MPI build's libpips calls MPI
      list(APPEND libs_private ${MPI_C_LIBRARIES})
    elseif(TARGET ${dep})
      message(FATAL_ERROR "pips.pc: libpips links ${dep}; say in cmake/install.cmake how to name it")
    elseif(dep MATCHES "^-")
      list(APPEND libs_private ${dep})
    elseif(IS_ABSOLUTE "${dep}") # a library file: -lNAME
      get_filename_component(name ${dep} NAME_WE)
      string(REGEX REPLACE "^lib" "" name ${name})
      list(APPEND libs_private -l${name})
    else()
      list(APPEND libs_private -l${dep})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES libs_private)
  list(JOIN requires ", " PIPS_PC_REQUIRES)
  list(JOIN requires_private ", " PIPS_PC_REQUIRES_PRIVATE)
  list(JOIN libs_private " " PIPS_PC_LIBS_PRIVATE)
  configure_file(${CMAKE_SOURCE_DIR}/cmake/pips.pc.in ${CMAKE_BINARY_DIR}/pips.pc @ONLY)
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL pips_write_pc)
install(FILES ${CMAKE_BINARY_DIR}/pips.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES ${PIPS_GEN_DIR}/pips.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PIPS_GEN_DIR}/pips.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
  RENAME pips)
install(FILES ${PIPS_GEN_DIR}/_pips DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
install(FILES ${PIPS_GEN_DIR}/pips.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
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
