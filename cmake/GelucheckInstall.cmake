# --- install / export: what `cmake --install` puts in place and find_package(gelucheck) gives
# (docs/architecture.md, "Use from your CMake project"). Read after every component.
#   bin/      gelucheck, gelucheck-subject-host (lib: subjects), gelucheck_proptests (the property
#             suite, when tests are built); the programs find each other and the adapters
#             relative to this directory
#   lib/      the static libraries gelucheck::common, gelu, reference; libgelucheck_gelu.so
#             (gelucheck::gelu_shared, the C API); libgelucheck_onednn.so when built;
#             gelucheck::subject_abi is the ABI header alone
#   include/gelucheck/  the public headers only (below); internal ones stay in the source tree
#   share/gelucheck/adapters/python/  the Python adapters
#   lib/cmake/gelucheck/  the package: targets, gelucheck_add_check (GelucheckAddCheck.cmake),
#             gelucheck::gtest (the matchers) when GoogleTest is found
# tests/install/install_test.cmake installs into a prefix under the build tree and builds and
# tests a consumer project against it.
include(CMakePackageConfigHelpers)
set_target_properties(gelucheck_common PROPERTIES EXPORT_NAME common)
set_target_properties(gelucheck_reference PROPERTIES EXPORT_NAME reference)
set_target_properties(gelucheck PROPERTIES EXPORT_NAME gelucheck)
set(_exported gelucheck_common gelucheck_reference gelucheck_subject_abi gelucheck)
if(GELUCHECK_WITH_LIBRARY)
  set_target_properties(gelucheck_gelu PROPERTIES EXPORT_NAME gelu)
  set_target_properties(gelucheck_gelu_shared PROPERTIES EXPORT_NAME gelu_shared)
  list(APPEND _exported gelucheck_gelu gelucheck_gelu_shared)
endif()
set(GELUCHECK_INSTALLS_PROPTESTS OFF)
if(TARGET gelucheck_proptests)
  set_target_properties(gelucheck_proptests PROPERTIES EXPORT_NAME proptests)
  list(APPEND _exported gelucheck_proptests)
  set(GELUCHECK_INSTALLS_PROPTESTS ON)
endif()
install(TARGETS ${_exported}
        EXPORT gelucheckTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Public headers, one by one: what the installed libraries' users include. Not installed, being
# the implementation's: system/'s plumbing (process.hpp, cleanup.hpp, output_dir.hpp,
# resources.hpp), the library's coefficients and kernel (constants.hpp, gelu_kernel.hpp), and the
# subjects', reports' and property suite's headers (their libraries are not installed).
set(GELUCHECK_PUBLIC_HEADERS
    common/include/gelucheck/common.hpp
    common/include/gelucheck/claim.hpp
    common/include/gelucheck/facts.hpp
    reference/include/gelucheck/reference.hpp
    reference/include/gelucheck/measure.hpp
    reference/include/gelucheck/mpfr.hpp
    reference/include/gelucheck/fast_reference.hpp
    subjects/include/gelucheck/subject_abi.h)
if(GELUCHECK_WITH_LIBRARY)
  list(APPEND GELUCHECK_PUBLIC_HEADERS src/include/gelucheck/gelu.hpp
       src/include/gelucheck/gelu_c.h src/include/gelucheck/claims.hpp)
endif()
if(TARGET gelucheck_gtest)
  list(APPEND GELUCHECK_PUBLIC_HEADERS gtest/include/gelucheck/gtest.hpp)
endif()
install(FILES ${GELUCHECK_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gelucheck)

set(GELUCHECK_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gelucheck)
install(EXPORT gelucheckTargets NAMESPACE gelucheck:: DESTINATION ${GELUCHECK_CMAKE_DIR})
# The matchers need GoogleTest at the consumer: their own export, loaded when it is found.
if(TARGET gelucheck_gtest)
  install(TARGETS gelucheck_gtest EXPORT gelucheckGTestTargets)
  install(EXPORT gelucheckGTestTargets NAMESPACE gelucheck:: DESTINATION ${GELUCHECK_CMAKE_DIR})
endif()
configure_package_config_file(cmake/gelucheckConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/gelucheckConfig.cmake
                              INSTALL_DESTINATION ${GELUCHECK_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/gelucheckConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/gelucheckConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/gelucheckConfigVersion.cmake
              cmake/GelucheckAddCheck.cmake
        DESTINATION ${GELUCHECK_CMAKE_DIR})
