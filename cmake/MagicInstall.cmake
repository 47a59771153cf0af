# What `cmake --install` puts under the prefix (apps/layout.hpp reads the
# same places back):
#
#   bin/magicount, bin/magicount-mpi (when built), and their old names
#     magic-enum, magic-enum-mpi (links, for one release)
#   libexec/magicount/baseline-*         the ports `reproduce` times
#   lib/libmagicount-engine.a, lib/libmagicount-base.a, include/magic/   the engine's public face
#   lib/cmake/magicount/, lib/pkgconfig/magicount.pc
#   share/magicount/{documents.json,known_counts.json,figures/,records/}
#   share/man/man1/magicount.1, share/bash-completion/completions/magicount
#   share/doc/magicount/
#   lib/python3/dist-packages/magicount/   (python/CMakeLists.txt, -DMAGIC_PYTHON=ON)
#
# Components (the Debian packages): main (magicount), mpi (magicount-mpi,
# the one program that needs Open MPI) and python (python3-magicount).
include(CMakePackageConfigHelpers)
set(MAGIC_EXTRA_COMPONENTS "")
set(MAGIC_EXTRA_PACKAGES "")
if(TARGET magicount-mpi)
  list(APPEND MAGIC_EXTRA_COMPONENTS mpi)
  list(APPEND MAGIC_EXTRA_PACKAGES magicount-mpi)
endif()
if(TARGET magicount_core)
  list(APPEND MAGIC_EXTRA_COMPONENTS python)
  list(APPEND MAGIC_EXTRA_PACKAGES python3-magicount)
endif()

install(TARGETS magicount RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET magicount-mpi)
  install(TARGETS magicount-mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT mpi)
endif()
install(TARGETS ${MAGIC_BASELINE_TARGETS} RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/magicount)

# The engine, for find_package(magicount) and pkg-config.
install(TARGETS magic_base magic_engine EXPORT magicount-targets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(h ${MAGIC_FACE_HEADERS})
  get_filename_component(dir ${h} DIRECTORY)
  set(from ${PROJECT_SOURCE_DIR}/engine/include/magic/${h})
  if(NOT EXISTS ${from})
    set(from ${PROJECT_SOURCE_DIR}/engine/base/include/magic/${h})  # magic_base's
  endif()
  install(FILES ${from} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/magic/${dir})
endforeach()
set(MAGIC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/magicount)
install(EXPORT magicount-targets NAMESPACE magicount:: DESTINATION ${MAGIC_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/magicount-config.cmake.in
  ${CMAKE_BINARY_DIR}/magicount-config.cmake INSTALL_DESTINATION ${MAGIC_CMAKE_DIR})
# 0.x: a minor version may change the face.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/magicount-config-version.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/magicount-config.cmake ${CMAKE_BINARY_DIR}/magicount-config-version.cmake
  DESTINATION ${MAGIC_CMAKE_DIR})
file(RELATIVE_PATH MAGIC_PC_UP /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
configure_file(${PROJECT_SOURCE_DIR}/cmake/magicount.pc.in ${CMAKE_BINARY_DIR}/magicount.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/magicount.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The data the program reads (apps/layout.hpp) and users browse.
set(MAGIC_DATA_DEST ${CMAKE_INSTALL_DATADIR}/magicount)
install(FILES ${PROJECT_SOURCE_DIR}/data/documents.json ${PROJECT_SOURCE_DIR}/data/known_counts.json
  DESTINATION ${MAGIC_DATA_DEST})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/data/figures ${PROJECT_SOURCE_DIR}/data/records
  DESTINATION ${MAGIC_DATA_DEST} PATTERN "*.rescued-*" EXCLUDE)

# The man page (help2man) and the bash completion, both made from the
# program's own options table after it is built.
find_program(MAGIC_HELP2MAN help2man)
set(MAGIC_MAN ${CMAKE_BINARY_DIR}/man/magicount.1)
set(MAGIC_COMPLETION ${CMAKE_BINARY_DIR}/completion/magicount)
add_custom_command(OUTPUT ${MAGIC_COMPLETION}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/completion
  COMMAND $<TARGET_FILE:magicount> completion bash > ${MAGIC_COMPLETION}
  DEPENDS magicount
  COMMENT "bash completion")
set(MAGIC_DOC_OUTPUTS ${MAGIC_COMPLETION})
if(MAGIC_HELP2MAN)
  add_custom_command(OUTPUT ${MAGIC_MAN} ${MAGIC_MAN}.gz
    COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/make-man.sh $<TARGET_FILE:magicount> ${MAGIC_MAN}
    COMMAND gzip -n -9 -c ${MAGIC_MAN} > ${MAGIC_MAN}.gz
    DEPENDS magicount ${PROJECT_SOURCE_DIR}/scripts/make-man.sh
    COMMENT "man page (help2man)")
  list(APPEND MAGIC_DOC_OUTPUTS ${MAGIC_MAN})
  install(FILES ${MAGIC_MAN}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "help2man not found: no man page (scripts/deps.sh installs it)")
endif()
install(FILES ${MAGIC_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
# share/doc/<package>: the README, the copyright file and the changelog
# Debian asks of every package.
set(MAGIC_CHANGELOG ${CMAKE_BINARY_DIR}/packaging/changelog.gz)
add_custom_command(OUTPUT ${MAGIC_CHANGELOG}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/packaging
  COMMAND gzip -n -9 -c ${PROJECT_SOURCE_DIR}/packaging/changelog > ${MAGIC_CHANGELOG}
  DEPENDS ${PROJECT_SOURCE_DIR}/packaging/changelog)
list(APPEND MAGIC_DOC_OUTPUTS ${MAGIC_CHANGELOG})
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/packaging/copyright ${MAGIC_CHANGELOG}
  DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/magicount)
# A man page that is magicount(1) under another name (a roff .so line).
function(magic_man_alias name component)
  set(page ${CMAKE_BINARY_DIR}/man/${name}.1.gz)
  add_custom_command(OUTPUT ${page}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
    COMMAND sh -c "echo .so man1/magicount.1 | gzip -n -9 > ${page}"
    VERBATIM)
  set(MAGIC_DOC_OUTPUTS ${MAGIC_DOC_OUTPUTS} ${page} PARENT_SCOPE)
  install(FILES ${page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT ${component})
endfunction()
# The old name magic-enum, for one release: the program's link (made by
# apps/CMakeLists.txt), its man page and its completion.
set(MAGIC_OLD_COMPLETION ${CMAKE_BINARY_DIR}/completion/magic-enum)
add_custom_command(OUTPUT ${MAGIC_OLD_COMPLETION}
  COMMAND ${CMAKE_COMMAND} -E create_symlink magicount ${MAGIC_OLD_COMPLETION}
  DEPENDS ${MAGIC_COMPLETION})
list(APPEND MAGIC_DOC_OUTPUTS ${MAGIC_OLD_COMPLETION})
install(FILES ${MAGIC_OLD_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES $<TARGET_FILE_DIR:magicount>/magic-enum DESTINATION ${CMAKE_INSTALL_BINDIR})
magic_man_alias(magic-enum main)
if(TARGET magicount-mpi)
  # magicount-mpi takes magicount's options: its man page points there.
  magic_man_alias(magicount-mpi mpi)
  magic_man_alias(magic-enum-mpi mpi)
  install(FILES $<TARGET_FILE_DIR:magicount-mpi>/magic-enum-mpi DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT mpi)
endif()
# Every Debian package has its copyright file and changelog.
foreach(component package IN ZIP_LISTS MAGIC_EXTRA_COMPONENTS MAGIC_EXTRA_PACKAGES)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/copyright ${MAGIC_CHANGELOG}
    DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${package} COMPONENT ${component})
endforeach()
add_custom_target(magic_docs ALL DEPENDS ${MAGIC_DOC_OUTPUTS})

include(MagicPackage)
