# ASan + UBSan flags for the sanitizer test variant (tests/CMakeLists.txt).
# Only for host compilers that support them directly (not nvcc_wrapper).
set(HEPEX_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all
                          -fno-omit-frame-pointer)
set(HEPEX_CAN_SANITIZE FALSE)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang" AND NOT Kokkos_ENABLE_CUDA
   AND NOT Kokkos_ENABLE_HIP)
  set(HEPEX_CAN_SANITIZE TRUE)
endif()

# Applies the sanitizer flags to a target (compile and link).
function(hepex_sanitize target)
  target_compile_options(${target} PRIVATE ${HEPEX_SANITIZER_FLAGS} -O1 -g)
  target_link_options(${target} PRIVATE ${HEPEX_SANITIZER_FLAGS})
endfunction()
