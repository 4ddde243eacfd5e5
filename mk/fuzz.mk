# Fuzzing (fuzz/README.md). fuzz/info_fuzz.c decodes its input into calls of the C API and
# checks each against a reference model; fuzz/serial_fuzz.c does the same for the serialization.
# make test replays their seed corpora and regression inputs through them with a plain main()
# (fuzz/replay_main.c, mk/c-tests.mk), against both libraries; make fuzz runs libFuzzer on the
# serialization target for SERIAL_FUZZ_SECONDS (half of FUZZ_SECONDS unless given), then on the
# C API target for FUZZ_SECONDS. For coverage inside the library, the fuzz build links a copy of
# the static library whose Rust code carries sanitizer-coverage instrumentation (stable
# -C passes / -C llvm-args; --target keeps it off build scripts), with debug assertions and
# overflow checks on, so a panic shows as MPI_ERR_INTERN and then as a model mismatch.
# FUZZ_RUST_COVERAGE=0 links the ordinary archive instead (to compare coverage). libFuzzer comes
# with clang ($(FUZZ_CLANG)); make deps installs it.
FUZZ_SECONDS ?= 300
SERIAL_FUZZ_SECONDS ?= $(shell expr $(FUZZ_SECONDS) / 2)
FUZZ_CLANG ?= clang-19
FUZZ_CLANG_PACKAGES ?= clang-19 libclang-rt-19-dev
FUZZ_RUST_COVERAGE ?= 1
FUZZ_HOST = $(shell rustc -vV | sed -n 's/^host: //p')
FUZZ_RUSTFLAGS := -C passes=sancov-module -C llvm-args=-sanitizer-coverage-level=3 \
    -C llvm-args=-sanitizer-coverage-inline-8bit-counters -C llvm-args=-sanitizer-coverage-pc-table \
    -C llvm-args=-sanitizer-coverage-trace-compares -C debug-assertions=on -C overflow-checks=on
FUZZ_CFLAGS := -std=c99 -Wall -Wextra -Werror -g -O1 -Iinclude -fno-omit-frame-pointer \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_ARCHIVE = $(if $(filter 1,$(FUZZ_RUST_COVERAGE)),target/fuzz/$(FUZZ_HOST)/release/libmpi_info.a,$(LIB)/libmpi_info.a)
# Whether $(FUZZ_CLANG) can link a libFuzzer target (make deps uses it too).
fuzzer_probe = printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > $(OUT)/fuzz/probe.c; \
  $(FUZZ_CLANG) -fsanitize=fuzzer $(OUT)/fuzz/probe.c -o $(OUT)/fuzz/probe 2>/dev/null; status=$$?; \
  rm -f $(OUT)/fuzz/probe.c $(OUT)/fuzz/probe; [ $$status -eq 0 ]

#: fuzz-build      the fuzz targets, built with clang's libFuzzer (make deps installs clang)
fuzz-build: lib
	@mkdir -p $(OUT)/fuzz
	@$(fuzzer_probe) || { echo "$(FUZZ_CLANG) cannot build a libFuzzer target: run make deps (as root; Debian packages $(FUZZ_CLANG_PACKAGES))" >&2; exit 1; }
ifeq ($(FUZZ_RUST_COVERAGE),1)
	RUSTFLAGS="$(FUZZ_RUSTFLAGS)" $(CARGO) rustc --release --lib --crate-type staticlib --target $(FUZZ_HOST) --target-dir target/fuzz
endif
	$(FUZZ_CLANG) $(FUZZ_CFLAGS) fuzz/info_fuzz.c $(FUZZ_ARCHIVE) $(STATIC_LIBS) -o $(OUT)/fuzz/info_fuzz

#: fuzz            libFuzzer on the C API against a reference model for FUZZ_SECONDS (300), after the serialization target
fuzz: fuzz-build fuzz-serial
	@fuzz/run.sh $(OUT)/fuzz/info_fuzz $(FUZZ_SECONDS) $(OUT)/fuzz

#: fuzz-serial     libFuzzer on the serialization target for SERIAL_FUZZ_SECONDS (half of FUZZ_SECONDS)
fuzz-serial: fuzz-build
	$(FUZZ_CLANG) $(FUZZ_CFLAGS) fuzz/serial_fuzz.c $(FUZZ_ARCHIVE) $(STATIC_LIBS) -o $(OUT)/fuzz/serial_fuzz
	@fuzz/run.sh $(OUT)/fuzz/serial_fuzz $(SERIAL_FUZZ_SECONDS) $(OUT)/fuzz-serial fuzz/serial_corpus fuzz/serial_regressions serial_replay

#: fuzz-smoke      make fuzz for 60 s (the serialization target for 30 s first)
fuzz-smoke:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=60
