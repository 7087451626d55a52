# heat2d_layer_check(TARGET): links every object of the static library
# TARGET, whether a program uses it or not, against the libraries TARGET
# declares (the layers below it) and nothing else. A call into a layer
# above, or into a peer it does not link, is then an undefined reference and
# the build fails, instead of linking by luck because a program happens to
# pull in the layer that defines it.
function(heat2d_layer_check target)
  set(check layer_check_${target})
  add_executable(${check} ${PROJECT_SOURCE_DIR}/cmake/layer_check_main.c)
  target_link_libraries(${check} PRIVATE ${target})
  target_link_options(${check} PRIVATE "LINKER:--whole-archive" $<TARGET_FILE:${target}>
                      "LINKER:--no-whole-archive")
  set_target_properties(${check} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                                            ${CMAKE_BINARY_DIR}/layer_checks)
endfunction()
