# cpack -G DEB: magicount_<version>_amd64.deb, installing under /usr what
# cmake --install installs (cmake/MagicInstall.cmake).  Depends comes from
# dpkg-shlibdeps (Debian: dpkg-dev).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME magicount)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "exhaustive, parallel enumeration of magic squares, stars and figures")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "Counts magic squares, magic stars, magic circles, completions of partly\n"
  "filled squares and any magic figure described in a JSON file, exactly and\n"
  "up to symmetry, on every core, with checkpoints, shards, MPI, an\n"
  "independent checker and a digest of every result set.")
string(REPLACE ";" "" CPACK_DEBIAN_PACKAGE_DESCRIPTION "${CPACK_DEBIAN_PACKAGE_DESCRIPTION}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "magicount maintainers <maintainers@magicount.invalid>")
set(CPACK_DEBIAN_PACKAGE_SECTION math)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
  OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
# magicount, and (when built) magicount-mpi beside it.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL main ${MAGIC_EXTRA_COMPONENTS})
set(CPACK_DEBIAN_MAIN_PACKAGE_NAME magicount)
# The packages were called magic-enum, magic-enum-mpi and python3-magic-enum
# until 0.1.0: the new ones take their place (and ship the old command as a link).
set(CPACK_DEBIAN_MAIN_PACKAGE_REPLACES magic-enum)
set(CPACK_DEBIAN_MAIN_PACKAGE_CONFLICTS magic-enum)
# The engine library and headers come along; a program linking them needs these.
set(CPACK_DEBIAN_MAIN_PACKAGE_SUGGESTS "libtbb-dev, nlohmann-json3-dev, libxxhash-dev, libnauty2-dev, pkg-config")
set(CPACK_DEBIAN_MPI_PACKAGE_NAME magicount-mpi)
set(CPACK_DEBIAN_MPI_PACKAGE_DEPENDS "magicount (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_MPI_PACKAGE_REPLACES magic-enum-mpi)
set(CPACK_DEBIAN_MPI_PACKAGE_CONFLICTS magic-enum-mpi)
set(CPACK_COMPONENT_MPI_DESCRIPTION "magicount-mpi: the magicount command line across MPI ranks (Open MPI)")
if(TARGET magicount_core)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-magicount)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_REPLACES python3-magic-enum)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_CONFLICTS python3-magic-enum)
  math(EXPR next_minor "${MAGIC_PYTHON_VERSION_MINOR} + 1")
  set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS
    "python3 (>= ${MAGIC_PYTHON_VERSION}), python3 (<< 3.${next_minor})")
  set(CPACK_COMPONENT_PYTHON_DESCRIPTION
    "magicount from Python: count() and solutions(), as --json writes them")
endif()
set(CPACK_OUTPUT_FILE_PREFIX ${CMAKE_BINARY_DIR}/packages)
include(CPack)
