# What `cmake --install` puts under the prefix (apps/layout.hpp reads the
# same places back):
#
#   bin/magic-enum, bin/magic-enum-mpi (when built)
#   libexec/magic-enum/baseline-*         the ports `reproduce` times
#   lib/libmagic-enum-engine.a, include/magic/   the engine's public face
#   lib/cmake/MagicEnum/, lib/pkgconfig/magic-enum.pc
#   share/magic-enum/{documents.json,known_counts.json,figures/,records/}
#   share/man/man1/magic-enum.1, share/bash-completion/completions/magic-enum
#   share/doc/magic-enum/
#   lib/python3/dist-packages/magic_enum/   (python/CMakeLists.txt, -DMAGIC_PYTHON=ON)
#
# Components (the Debian packages): main (magic-enum), mpi (magic-enum-mpi,
# the one program that needs Open MPI) and python (python3-magic-enum).
include(CMakePackageConfigHelpers)
set(MAGIC_EXTRA_COMPONENTS "")
set(MAGIC_EXTRA_PACKAGES "")
if(TARGET magic-enum-mpi)
  list(APPEND MAGIC_EXTRA_COMPONENTS mpi)
  list(APPEND MAGIC_EXTRA_PACKAGES magic-enum-mpi)
endif()
if(TARGET magic_enum_core)
  list(APPEND MAGIC_EXTRA_COMPONENTS python)
  list(APPEND MAGIC_EXTRA_PACKAGES python3-magic-enum)
endif()

install(TARGETS magic-enum RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET magic-enum-mpi)
  install(TARGETS magic-enum-mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT mpi)
endif()
install(TARGETS ${MAGIC_BASELINE_TARGETS} RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/magic-enum)

# The engine, for find_package(MagicEnum) and pkg-config.
install(TARGETS magic_engine EXPORT MagicEnumTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/engine/include/magic DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(MAGIC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/MagicEnum)
install(EXPORT MagicEnumTargets NAMESPACE MagicEnum:: DESTINATION ${MAGIC_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/MagicEnumConfig.cmake.in
  ${CMAKE_BINARY_DIR}/MagicEnumConfig.cmake INSTALL_DESTINATION ${MAGIC_CMAKE_DIR})
# 0.x: a minor version may change the face.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/MagicEnumConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/MagicEnumConfig.cmake ${CMAKE_BINARY_DIR}/MagicEnumConfigVersion.cmake
  DESTINATION ${MAGIC_CMAKE_DIR})
file(RELATIVE_PATH MAGIC_PC_UP /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
configure_file(${PROJECT_SOURCE_DIR}/cmake/magic-enum.pc.in ${CMAKE_BINARY_DIR}/magic-enum.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/magic-enum.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The data the program reads (apps/layout.hpp) and users browse.
set(MAGIC_DATA_DEST ${CMAKE_INSTALL_DATADIR}/magic-enum)
install(FILES ${PROJECT_SOURCE_DIR}/data/documents.json ${PROJECT_SOURCE_DIR}/data/known_counts.json
  DESTINATION ${MAGIC_DATA_DEST})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/data/figures ${PROJECT_SOURCE_DIR}/data/records
  DESTINATION ${MAGIC_DATA_DEST} PATTERN "*.rescued-*" EXCLUDE)

# The man page (help2man) and the bash completion, both made from the
# program's own options table after it is built.
find_program(MAGIC_HELP2MAN help2man)
set(MAGIC_MAN ${CMAKE_BINARY_DIR}/man/magic-enum.1)
set(MAGIC_COMPLETION ${CMAKE_BINARY_DIR}/completion/magic-enum)
add_custom_command(OUTPUT ${MAGIC_COMPLETION}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/completion
  COMMAND $<TARGET_FILE:magic-enum> completion bash > ${MAGIC_COMPLETION}
  DEPENDS magic-enum
  COMMENT "bash completion")
set(MAGIC_DOC_OUTPUTS ${MAGIC_COMPLETION})
if(MAGIC_HELP2MAN)
  add_custom_command(OUTPUT ${MAGIC_MAN} ${MAGIC_MAN}.gz
    COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/make-man.sh $<TARGET_FILE:magic-enum> ${MAGIC_MAN}
    COMMAND gzip -n -9 -c ${MAGIC_MAN} > ${MAGIC_MAN}.gz
    DEPENDS magic-enum ${PROJECT_SOURCE_DIR}/scripts/make-man.sh
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
  DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/magic-enum)
if(TARGET magic-enum-mpi)
  # magic-enum-mpi takes magic-enum's options: its man page points there.
  set(MAGIC_MPI_MAN ${CMAKE_BINARY_DIR}/man/magic-enum-mpi.1.gz)
  add_custom_command(OUTPUT ${MAGIC_MPI_MAN}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
    COMMAND sh -c "echo .so man1/magic-enum.1 | gzip -n -9 > ${MAGIC_MPI_MAN}"
    VERBATIM)
  list(APPEND MAGIC_DOC_OUTPUTS ${MAGIC_MPI_MAN})
  install(FILES ${MAGIC_MPI_MAN} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT mpi)
endif()
# Every Debian package has its copyright file and changelog.
foreach(component package IN ZIP_LISTS MAGIC_EXTRA_COMPONENTS MAGIC_EXTRA_PACKAGES)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/copyright ${MAGIC_CHANGELOG}
    DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${package} COMPONENT ${component})
endforeach()
add_custom_target(magic_docs ALL DEPENDS ${MAGIC_DOC_OUTPUTS})

include(MagicPackage)
