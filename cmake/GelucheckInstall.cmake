# --- install / export: find_package(gelucheck) gives gelucheck::common, gelucheck::gelu,
# gelucheck::gelu_shared (libgelucheck_gelu.so, the C API) and gelucheck::reference (MPFR).
# tests/install/install_test.cmake installs into a prefix under the build tree and builds a
# consumer project against it.
include(CMakePackageConfigHelpers)
set_target_properties(gelucheck_common PROPERTIES EXPORT_NAME common)
set_target_properties(gelucheck_gelu PROPERTIES EXPORT_NAME gelu)
set_target_properties(gelucheck_gelu_shared PROPERTIES EXPORT_NAME gelu_shared)
set_target_properties(gelucheck_reference PROPERTIES EXPORT_NAME reference)
install(TARGETS gelucheck_common gelucheck_gelu gelucheck_gelu_shared gelucheck_reference
        EXPORT gelucheckTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(dir common/include/gelucheck src/include/gelucheck reference/include/gelucheck)
  install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gelucheck
          FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")
endforeach()
set(GELUCHECK_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gelucheck)
install(EXPORT gelucheckTargets NAMESPACE gelucheck:: DESTINATION ${GELUCHECK_CMAKE_DIR})
configure_package_config_file(cmake/gelucheckConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/gelucheckConfig.cmake
                              INSTALL_DESTINATION ${GELUCHECK_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/gelucheckConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/gelucheckConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/gelucheckConfigVersion.cmake
        DESTINATION ${GELUCHECK_CMAKE_DIR})
