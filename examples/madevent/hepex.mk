# hepex's matrix elements in a MadGraph .mad directory's MadEvent
# (docs/madevent.md). Include it at the end of SubProcesses/makefile
# (examples/madevent/use_hepex.sh does that, once):
#     include /path/to/hepex.mk
# Then the one switch is the variable HEPEX, the directory that holds
# libhepex_madevent.so (a hepex build's src/ or an install's lib/): set (in
# the environment, so that bin/generate_events sees it), every madevent that
# CUDACPP's makefiles link with its C++ or CUDA library (madevent_cpp*,
# madevent_cuda: cudacpp_backend in the run card) is linked with hepex's
# instead, the Fortran unchanged; unset, nothing changes.
ifneq ($(HEPEX),)
  HEPEX_LIBRARY := $(firstword $(wildcard $(HEPEX)/libhepex_madevent.so $(HEPEX)/lib/libhepex_madevent.so $(HEPEX)/lib64/libhepex_madevent.so $(HEPEX)/src/libhepex_madevent.so))
  ifeq ($(HEPEX_LIBRARY),)
    $(error HEPEX=$(HEPEX): no libhepex_madevent.so there, nor in its lib/, lib64/ or src/)
  endif
  HEPEX_LIBDIR := $(abspath $(dir $(HEPEX_LIBRARY)))
  # CUDACPP's libraries are not built; its link rules take hepex's.
  override CUDACPP_COMMONLIB := hepex_madevent
  override CUDACPP_BACKENDLIB := hepex_madevent
  override LIBFLAGSRPATH := -Wl,-rpath,$(HEPEX_LIBDIR)
  override LDFLAGS += -L$(HEPEX_LIBDIR) -lstdc++
$(CUDACPP_BUILDDIR)/.cudacpplibs:
	mkdir -p $(CUDACPP_BUILDDIR) && touch $@
endif
