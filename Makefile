# hrpplan — every entry point of the project.
#
#   make            build/libdistance.a, build/libplanner.a, build/hrpplan, build/run_tests
#   make deps       install the Debian packages the build needs (tools/install-deps.sh)
#   make run        deps + build + plan the default scenario scenarios/hand_cross.yaml into out/hand_cross/
#   make test       deps + build + run every Check suite, then install-check
#   make asan       the same suites under AddressSanitizer + UndefinedBehaviorSanitizer, in build/asan/
#                   (but the test case tagged mesh_plan: minutes of mesh planning)
#   make tsan       the suites whose rows run on several threads under ThreadSanitizer, in build/tsan/
#   make bench      build tools/bench/bench_*.c at -O3 and run each; prints `name: value` lines
#   make env-meshes write the environment meshes scenarios/meshes/*.stl (generated; run,
#                   test, asan and bench depend on it)
#   make fuzz       libFuzzer harnesses of every loader (tools/fuzz/), FUZZ_SECONDS each
#   make layers     check that every #include follows the layer order of planner/ and
#                   keeps distance/ apart (tools/layers/check-layers.sh; make test runs it)
#   make install    libhrpdistance (static + shared, soname libhrpdistance.so.MAJOR), its
#                   headers in include/hrpplan/ and hrpdistance.pc for pkg-config, under
#                   PREFIX (/usr/local; DESTDIR honoured); `make uninstall` removes them;
#                   `make install-check` tests both through pkg-config (docs/api.md)
#   make clean      remove build/ and nothing else
#
# Sources are picked up by wildcard: distance/*.c -> libdistance.a, planner/<layer>/*.c (but
# the entry point planner/cli/hrpplan_main.c) -> libplanner.a, tests/check_*.c ->
# build/run_tests. Include paths follow the layers (docs/ARCHITECTURE.md): everything sees
# distance/include/ (the public headers of libdistance) and planner/ (headers named by
# layer, "model/pln_robot.h"); only distance/ itself and the tests also see distance/,
# where the *_internal.h headers live. `make layers` checks the include order.
# A test file tests/check_<name>.c defines `Suite *<name>_suite(void)`; the runner lists
# them from the file names, so adding a suite needs no edit here.

BUILD    ?= build
CC       ?= cc
# assimp (Debian libassimp-dev): the Collada, PLY and OFF meshes of planner/model/pln_meshio.c,
# through its C API; a C++ library, linked by cc through its shared object (which pulls in
# libstdc++ itself). libdistance links none of these: libm only.
PKGS     := nlopt lapacke yaml-0.1 openblas libxml-2.0 assimp
# pkg-config is asked lazily (=): `make deps` may have just installed the packages.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) check 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null)
# MuJoCo (Debian libmujoco-dev, no pkg-config file): the engine of `hrpplan simulate`
# (output/pln_sim.c) and the dynamics oracle of the tests and benchmarks
MUJOCO_LIBS := -lmujoco

OPT      ?= -O2
SAN      ?=
CFLAGS   ?=
CFLAGS   += -std=c11 $(OPT) -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
            -Idistance/include -Iplanner $(SAN)
CPPFLAGS += -MMD -MP
LDLIBS   += $(MUJOCO_LIBS) -lm -lpthread

DST_SRC  := $(sort $(wildcard distance/*.c))
PLN_SRC  := $(sort $(filter-out planner/cli/hrpplan_main.c,$(wildcard planner/*/*.c)))
TEST_SRC := $(sort $(wildcard tests/check_*.c))
TEST_SUITES := $(patsubst tests/check_%.c,%,$(filter-out tests/check_main.c,$(TEST_SRC)))

DST_OBJ  := $(DST_SRC:%.c=$(BUILD)/%.o)
# + the viewer assets, generated (see "viewer assets" below)
PLN_OBJ  := $(PLN_SRC:%.c=$(BUILD)/%.o) $(BUILD)/generated/pln_view_assets.o
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/planner/cli/hrpplan_main.o

.PHONY: all deps run test asan clean check-run bench layers
all: $(BUILD)/libdistance.a $(BUILD)/libplanner.a $(BUILD)/hrpplan $(BUILD)/run_tests

deps:
	@./tools/install-deps.sh

# The recursive $(MAKE) re-reads pkg-config after deps may have installed things.
run: deps
	@$(MAKE) --no-print-directory all env-meshes
	./$(BUILD)/hrpplan plan scenarios/hand_cross.yaml -o out/hand_cross --simulate

test: deps layers
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory check-run
	@$(MAKE) --no-print-directory install-check

# docs/ARCHITECTURE.md: base < model < motion < problem < output < cli, distance/ alone
layers:
	@./tools/layers/check-layers.sh .

check-run: $(BUILD)/run_tests $(BUILD)/hrpplan env-meshes
	@cd $(CURDIR) && HRPPLAN_BIN=$(CURDIR)/$(BUILD)/hrpplan ./$(BUILD)/run_tests

# the same variables on both calls, so that a rebuild in the second one keeps the flags
ASAN_VARS = BUILD=build/asan OPT=-O1 \
            SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
# `make asan`: the whole suite, the mesh planning tests included (CK_TIMEOUT_MULTIPLIER
# gives Check's per-case timeouts room for the sanitizers' slowdown). `make asan-ci`: the
# subset CI runs (docs/ARCHITECTURE.md "Checks"): all but the mesh planning cases and the
# free-base stepping plan (tags mesh_plan, long_plan), which take tens of minutes under
# ASan; every loader and every subcommand is in it.
ASAN_RUN = ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
           CK_TIMEOUT_MULTIPLIER=4
# `make tsan`: ThreadSanitizer over the suites that evaluate rows on 2 and 3 threads and
# compare them with one (check_pln_problem, check_pln_geom; a few minutes), TSAN_TESTS to
# choose others. Not in CI: the sanitizer's slowdown of the threaded plans.
TSAN_VARS = BUILD=build/tsan OPT=-O1 SAN="-fsanitize=thread -fno-omit-frame-pointer"
TSAN_TESTS ?= pln_problem pln_geom
.PHONY: tsan
tsan: deps
	@$(MAKE) --no-print-directory $(TSAN_VARS) all
	@for s in $(TSAN_TESTS); do \
	    TSAN_OPTIONS=halt_on_error=1 CK_TIMEOUT_MULTIPLIER=10 CK_RUN_SUITE=$$s \
	    HRPPLAN_BIN=$(CURDIR)/build/tsan/hrpplan ./build/tsan/run_tests || exit 1; \
	done
.PHONY: asan-ci valgrind valgrind-ci
asan: deps
	@$(MAKE) --no-print-directory $(ASAN_VARS) all
	@$(ASAN_RUN) $(MAKE) --no-print-directory $(ASAN_VARS) check-run
asan-ci: deps
	@$(MAKE) --no-print-directory $(ASAN_VARS) all
	@$(ASAN_RUN) CK_EXCLUDE_TAGS="mesh_plan long_plan" $(MAKE) --no-print-directory $(ASAN_VARS) check-run

# `make valgrind`: the whole suite under valgrind's memcheck, on the -O2 -g build: the
# forked test processes and every hrpplan the tests start (--trace-children) are
# checked; an invalid read or write, a use of an uninitialised value, a bad free or a
# definite leak fails the run (exit 99 from the process, and any "==pid==" report in
# build/valgrind.log fails the target). rsvg-convert, Debian's SVG renderer that some
# tests run, is not traced. VALGRIND_TESTS=<suite> runs one suite (CK_RUN_SUITE), e.g.
# `make valgrind VALGRIND_TESTS=bad_inputs`.
VALGRIND = valgrind --tool=memcheck --error-exitcode=99 --leak-check=full \
           --errors-for-leak-kinds=definite --show-leak-kinds=definite --trace-children=yes \
           --trace-children-skip='*/rsvg-convert' \
           --num-callers=30 -q
VALGRIND_TESTS ?=
valgrind: deps
	@command -v valgrind >/dev/null 2>&1 || apt-get install -y valgrind
	@$(MAKE) --no-print-directory all env-meshes
	@cd $(CURDIR) && { HRPPLAN_BIN=$(CURDIR)/$(BUILD)/hrpplan CK_TIMEOUT_MULTIPLIER=60 \
	    $(if $(VALGRIND_TESTS),CK_RUN_SUITE=$(VALGRIND_TESTS)) $(VALGRIND) ./$(BUILD)/run_tests; \
	    echo $$? > $(BUILD)/valgrind.rc; } 2>&1 | tee $(BUILD)/valgrind.log
	@test "$$(cat $(BUILD)/valgrind.rc)" = 0 || { echo "valgrind: the suite failed"; exit 1; }
	@! grep -q '^==[0-9]*== ' $(BUILD)/valgrind.log || \
	    { echo "valgrind: errors reported, see $(BUILD)/valgrind.log"; exit 1; }
	@echo "valgrind: no error and no definite leak ($(BUILD)/valgrind.log)"

clean:
	rm -rf build

# Benchmarks: each tools/bench/bench_<name>.c is a program of its own, built against an
# -O3 -march=native copy of the libraries in build/bench/, run from the top directory.
BENCH_SRC := $(sort $(wildcard tools/bench/bench_*.c))
bench: deps
	@$(MAKE) --no-print-directory BUILD=build/bench OPT="-O3 -march=native -DNDEBUG" bench-run

BENCH_BIN := $(BENCH_SRC:tools/bench/%.c=$(BUILD)/%)
.PHONY: bench-run
# bench_plan_random runs four times: its default set, then 32 support-phase problems (issue 21
# item 1: random support phases; four seeds, since session 32: the two seeds' ten of before
# gave a median 0.26 s below these 32's), whose lines are random_support_*, both with the
# default optimizer.algorithm auto (docs/math/sqp.md sec. 7), then the default set and the ten
# support problems of seeds 1 and 2 with NLopt's SLSQP alone (minutes on the 32):
# random_slsqp_*, random_support_slsqp_*
bench-run: $(BENCH_BIN) env-meshes
	@set -e; for b in $(BENCH_BIN); do echo "== $$b"; ./$$b; done
	@echo "== $(BUILD)/bench_plan_random --support --seed 1 --seed 2 --seed 3 --seed 4 --count 8 --no-baseline"
	@./$(BUILD)/bench_plan_random --support --seed 1 --seed 2 --seed 3 --seed 4 --count 8 --no-baseline
	@echo "== $(BUILD)/bench_plan_random --no-baseline --algorithm slsqp"
	@./$(BUILD)/bench_plan_random --no-baseline --algorithm slsqp
	@echo "== $(BUILD)/bench_plan_random --support --count 5 --no-baseline --algorithm slsqp"
	@./$(BUILD)/bench_plan_random --support --count 5 --no-baseline --algorithm slsqp

$(BUILD)/bench_%: $(BUILD)/tools/bench/bench_%.o $(BUILD)/libplanner.a $(BUILD)/libdistance.a
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

# the dynamics bench times MuJoCo on the same model as its baseline
$(BUILD)/bench_dyn: LDLIBS += $(MUJOCO_LIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -c $< -o $@

# the internal headers of distance/ are for distance/ itself and its tests
$(BUILD)/distance/%.o: CFLAGS += -Idistance
$(BUILD)/tests/%.o: CFLAGS += -Idistance

# distance/dst_ellipsoid.c is scalar 3-vector arithmetic that GCC's vectoriser slows down
# (2- and 3-lane loops, shuffles); measured in docs/perf/ellipsoid.md.
$(BUILD)/distance/dst_ellipsoid.o: CFLAGS += -fno-tree-vectorize

$(BUILD)/libdistance.a: $(DST_OBJ)
	@rm -f $@
	ar rcs $@ $^

# ---- viewer assets (issue 15) ---------------------------------------------------------
# The HTML, CSS and JavaScript of view.html are files in planner/output/view/, edited and
# linted as what they are. tools/embed/embed.c (built first, with the host compiler and no
# sanitizer) turns them into $(BUILD)/generated/pln_view_assets.c, which defines the arrays
# planner/output/pln_view_assets.h declares; it goes into libplanner.a like any source.
# The page renders with three.js r111 (issue 22): Debian's libjs-three (make deps) provides
# three.min.js, which is inlined into every view.html behind its licence
# (planner/output/view/three-license.js; Debian's minified copy has no header). A copy with
# "</script" or "<!--" in it could not be inlined into a <script> element: refused.
THREE_JS ?= /usr/share/javascript/three/three.min.js
VIEW_ASSETS := planner/output/view/view.html planner/output/view/view.css \
               planner/output/view/view.js

$(BUILD)/embed: tools/embed/embed.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -o $@ $<

$(BUILD)/generated/three.js: planner/output/view/three-license.js $(wildcard $(THREE_JS))
	@mkdir -p $(dir $@)
	@test -f $(THREE_JS) || { echo "$(THREE_JS) is missing: make deps (Debian package libjs-three)"; exit 1; }
	@! grep -qiE '</script|<!--' $(THREE_JS) || { echo "$(THREE_JS) holds </script or <!--: cannot be inlined"; exit 1; }
	cat planner/output/view/three-license.js $(THREE_JS) > $@.tmp && mv $@.tmp $@

$(BUILD)/generated/pln_view_assets.c: $(VIEW_ASSETS) $(BUILD)/generated/three.js $(BUILD)/embed
	@mkdir -p $(dir $@)
	./$(BUILD)/embed $@ pln_view_page_html=planner/output/view/view.html \
	    pln_view_page_css=planner/output/view/view.css pln_view_page_js=planner/output/view/view.js \
	    pln_view_page_three=$(BUILD)/generated/three.js

$(BUILD)/generated/pln_view_assets.o: $(BUILD)/generated/pln_view_assets.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# `make lint-view` checks that view.js parses (node --check), when node is installed;
# not part of make test.
.PHONY: lint-view
lint-view:
	@command -v node >/dev/null 2>&1 || { echo "lint-view: node is not installed"; exit 1; }
	node --check planner/output/view/view.js
	@grep -q 'THREE\.' planner/output/view/view.js || { echo "lint-view: view.js does not use THREE"; exit 1; }

$(BUILD)/libplanner.a: $(PLN_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/hrpplan: $(MAIN_OBJ) $(BUILD)/libplanner.a $(BUILD)/libdistance.a
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

# The suite list is generated from the test file names; rewritten only when it changes.
$(BUILD)/tests/suites.inc: FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' $(foreach s,$(TEST_SUITES),'SUITE($(s))') > $@.new
	@if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi

$(BUILD)/tests/check_main.o: $(BUILD)/tests/suites.inc
$(BUILD)/tests/check_main.o: CFLAGS += -I$(BUILD)/tests

$(BUILD)/run_tests: $(TEST_OBJ) $(BUILD)/libplanner.a $(BUILD)/libdistance.a
	$(CC) $(CFLAGS) -o $@ $^ $(CHECK_LIBS) $(PKG_LIBS) $(MUJOCO_LIBS) $(LDLIBS)

.PHONY: FORCE
FORCE:

-include $(DST_OBJ:.o=.d) $(PLN_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) \
         $(BENCH_SRC:%.c=$(BUILD)/%.d)

# ---- fuzzing (issue 23) ------------------------------------------------------------------
# `make fuzz [FUZZ_SECONDS=60]` builds the libFuzzer harnesses tools/fuzz/fuzz_<name>.c
# with Debian's clang (installed if missing) against an ASan+UBSan copy of the libraries in
# build/fuzz/, and runs each for FUZZ_SECONDS from its seed corpus tests/fuzz/corpus/<name>/
# (the shipped files); the corpus grows in build/fuzz/corpus/<name>/, a crash is kept as
# build/fuzz/crash-<name>-*. One summary line per harness: executions, and crashes.
FUZZ_SECONDS ?= 60
FUZZ_NAMES := $(patsubst tools/fuzz/fuzz_%.c,%,$(sort $(wildcard tools/fuzz/fuzz_*.c)))
FUZZ_VARS = BUILD=build/fuzz CC=clang OPT=-O1 \
            SAN="-fsanitize=address,undefined,fuzzer-no-link -fno-omit-frame-pointer -Wno-error"
.PHONY: fuzz fuzz-build
fuzz: deps
	@command -v clang >/dev/null 2>&1 || apt-get install -y clang
	@$(MAKE) --no-print-directory $(FUZZ_VARS) fuzz-build env-meshes
	@set -e; for n in $(FUZZ_NAMES); do \
	    mkdir -p build/fuzz/corpus/$$n; \
	    ./build/fuzz/fuzz_$$n -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -timeout=20 \
	        -rss_limit_mb=2048 -artifact_prefix=build/fuzz/crash-$$n- \
	        build/fuzz/corpus/$$n tests/fuzz/corpus/$$n > build/fuzz/$$n.log 2>&1 \
	        || { echo "fuzz $$n: FAILED (build/fuzz/$$n.log)"; tail -30 build/fuzz/$$n.log; exit 1; }; \
	    echo "fuzz $$n: $$(grep -o 'number_of_executed_units: [0-9]*' build/fuzz/$$n.log) in $(FUZZ_SECONDS) s, no crash"; \
	done
fuzz-build: $(FUZZ_NAMES:%=$(BUILD)/fuzz_%)
$(BUILD)/fuzz_%: tools/fuzz/fuzz_%.c tools/fuzz/fuzz_util.h $(BUILD)/libplanner.a $(BUILD)/libdistance.a
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -fsanitize=fuzzer -Itools/fuzz -o $@ $< $(BUILD)/libplanner.a \
	    $(BUILD)/libdistance.a $(PKG_LIBS) $(LDLIBS)

# ---- link meshes and robots/hrp2.yaml (issue 4) ---------------------------------------
# `make meshes` builds the generator and rewrites robots/meshes/*.obj and robots/hrp2.yaml
# (deterministic; the results are committed). It links libdistance.a to read each mesh
# back and check it before fitting the capsules.
.PHONY: meshes
meshes: $(BUILD)/hrp2_meshgen
	./$(BUILD)/hrp2_meshgen robots

$(BUILD)/hrp2_meshgen: $(BUILD)/tools/meshgen/hrp2_meshgen.o $(BUILD)/libdistance.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

-include $(BUILD)/tools/meshgen/hrp2_meshgen.d
# Optional peer comparison (GJK/EPA vs Debian libccd-dev), never part of make / make test:
# `make bench-ccd` builds tools/bench/ccd/compare_ccd.c against an -O3 copy of libdistance.a
# in build/bench/ and runs it; it needs `apt-get install -y libccd-dev`.
.PHONY: bench-ccd
bench-ccd:
	@pkg-config --exists ccd || { echo "bench-ccd: libccd-dev is not installed (apt-get install -y libccd-dev)"; exit 1; }
	@$(MAKE) --no-print-directory BUILD=build/bench OPT="-O3 -march=native -DNDEBUG" build/bench/libdistance.a
	@mkdir -p build/bench/tools/bench/ccd
	$(CC) -std=c11 -O3 -march=native -DNDEBUG -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -Idistance/include \
	    $$(pkg-config --cflags ccd) -o build/bench/compare_ccd tools/bench/ccd/compare_ccd.c \
	    build/bench/libdistance.a $$(pkg-config --libs ccd) -lm
	@./build/bench/compare_ccd

# ---- browser test of view.html (issue 8) ----------------------------------------------
# `make test-browser` installs Debian's chromium if it is missing, plans hand_cross, opens
# its view.html headless (off the network), has the page move its slider and report the
# canvas pixels of three frames, and saves screenshots in $(BUILD)/browser/. Not part of
# `make test`.
.PHONY: test-browser
test-browser: deps
	@./tools/browser/install-browser.sh
	@$(MAKE) --no-print-directory all $(BUILD)/browser_mesh_view env-meshes
	./tools/browser/test-view.sh $(BUILD)/hrpplan $(BUILD)/browser $(BUILD)/browser_mesh_view

# ---- environment meshes (issue 6) ------------------------------------------------------
# `make env-meshes` builds tools/meshgen/env_meshgen.c and writes the statues (~100k
# triangles each) and the cup (~1k) into scenarios/meshes/ (generated, not committed: see
# .gitignore). The tool checks each file it wrote (closed, outward, no degenerate triangle)
# and fails otherwise. A file rule: the meshes are rewritten only when the tool changes.
# run, check-run (so test and asan) and bench-run depend on it.
ENV_MESHES := scenarios/meshes/statue_left.stl scenarios/meshes/statue_right.stl \
              scenarios/meshes/cup.stl
.PHONY: env-meshes
env-meshes: $(ENV_MESHES)

$(ENV_MESHES) &: $(BUILD)/env_meshgen
	./$(BUILD)/env_meshgen scenarios/meshes

$(BUILD)/env_meshgen: $(BUILD)/tools/meshgen/env_meshgen.o $(BUILD)/libdistance.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

-include $(BUILD)/tools/meshgen/env_meshgen.d

# The browser test also draws meshes: $(BUILD)/browser_mesh_view writes a view.html with
# the link meshes and the two statues (tools/browser/mesh_view.c), which test-view.sh
# opens next to the planned hand_cross (the test-browser recipe builds it).

$(BUILD)/browser_mesh_view: $(BUILD)/tools/browser/mesh_view.o $(BUILD)/libplanner.a $(BUILD)/libdistance.a
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

-include $(BUILD)/tools/browser/mesh_view.d

# ---- FCL comparison (issues 6, 7) ------------------------------------------------------
# `make bench-fcl` installs Debian's libfcl-dev if it is missing, writes bench_mesh's
# mesh_distance pairs to files (tools/bench/fcl/write_pairs.c, timing our query on them),
# and times FCL's mesh distance on the same files (tools/bench/fcl/compare_fcl.cpp), then
# the same by distance band on nine pairs of 1k-100k triangles (`bands`, issue 20:
# mesh_vs_fcl_<band>_median and _p90 lines, docs/perf/mesh.md); then
# it times FCL's convex-hull distance and signed distance against ours on bench_gjk's hulls
# and poses (tools/bench/fcl/compare_fcl_convex.cpp, issue 7; built without -march=native,
# since fcl::Convex from Debian's library crashes when Eigen's alignment differs). These are
# the only C++ in the tree; FCL stays out of the main build and the tests.
# Issue 20: last it times FCL's capsule-capsule distance against dst_capsule_distance on
# bench_capsule's static pairs (tools/bench/fcl/compare_fcl_capsule.cpp; also without
# -march=native, and with -std=c++17 after fcl's pkg-config flags, which carry -std=c++11).
.PHONY: bench-fcl
bench-fcl:
	@pkg-config --exists fcl || apt-get install -y libfcl-dev
	@$(MAKE) --no-print-directory BUILD=build/bench OPT="-O3 -march=native -DNDEBUG" build/bench/libdistance.a
	@mkdir -p build/bench/fcl
	$(CC) -std=c11 -O3 -march=native -DNDEBUG -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -Idistance/include \
	    -o build/bench/fcl/write_pairs tools/bench/fcl/write_pairs.c build/bench/libdistance.a -lm
	$(CXX) -std=c++17 -O3 -march=native -DNDEBUG -Wall -Wextra $$(pkg-config --cflags fcl) \
	    -o build/bench/fcl/compare_fcl tools/bench/fcl/compare_fcl.cpp $$(pkg-config --libs fcl)
	./build/bench/fcl/write_pairs build/bench/fcl
	./build/bench/fcl/compare_fcl build/bench/fcl
	@mkdir -p build/bench/fcl/bands
	./build/bench/fcl/write_pairs build/bench/fcl/bands bands
	./build/bench/fcl/compare_fcl bands build/bench/fcl/bands
	$(CXX) -std=c++17 -O3 -DNDEBUG -Wall -Wextra $$(pkg-config --cflags fcl) -Idistance/include \
	    -o build/bench/fcl/compare_fcl_convex tools/bench/fcl/compare_fcl_convex.cpp \
	    build/bench/libdistance.a $$(pkg-config --libs fcl)
	./build/bench/fcl/compare_fcl_convex
	$(CXX) -O3 -DNDEBUG -Wall -Wextra $$(pkg-config --cflags fcl) -std=c++17 -Idistance/include \
	    -o build/bench/fcl/compare_fcl_capsule tools/bench/fcl/compare_fcl_capsule.cpp \
	    build/bench/libdistance.a $$(pkg-config --libs fcl)
	./build/bench/fcl/compare_fcl_capsule

# ---- installable distance library (issue 22) ------------------------------------------
# `make install [PREFIX=/usr/local] [DESTDIR=]` installs libhrpdistance for other programs:
#   $(LIBDIR)/libhrpdistance.a, libhrpdistance.so.X.Y.Z (soname libhrpdistance.so.X) with the
#   symlinks libhrpdistance.so.X and libhrpdistance.so, $(INCLUDEDIR)/hrpplan/dst*.h (the
#   public headers distance/include/*.h; never the *_internal.h of distance/), and
#   $(PKGCONFIGDIR)/hrpdistance.pc (Cflags -I$(INCLUDEDIR): programs write
#   #include <hrpplan/dst_mesh.h>; Libs.private -lm, the library's only dependency).
# `make uninstall` removes exactly those files. The version is written once, as
# DST_VERSION_MAJOR/MINOR/PATCH in distance/include/dst.h; X above is MAJOR.
# Both libraries are made of position-independent copies of the distance/ objects in
# $(BUILD)/pic/ (-fPIC, so the archive may go into other shared objects too;
# -fno-semantic-interposition lets calls inside the library bind directly, as they do in
# libdistance.a), so libdistance.a and everything linked to it stay as they are.
# The shared library exports only the functions the public headers declare (a version
# script, $(BUILD)/pic/libhrpdistance.map, generated from the headers by
# tools/install/export-map.sh); internal helpers stay local. docs/api.md is the API.
# `make install-check` (run by `make test`) installs into a temporary prefix, builds a
# program (tools/install/smoke.c) and every example of docs/api.md against it through
# pkg-config, each shared and static, runs them, and uninstalls
# (tools/install/check-install.sh).
PREFIX       ?= /usr/local
DESTDIR      ?=
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
DST_VERSION_PART = $(shell sed -n 's/^\#define DST_VERSION_$(1) \([0-9][0-9]*\)$$/\1/p' distance/include/dst.h)
DST_MAJOR   := $(call DST_VERSION_PART,MAJOR)
DST_VERSION := $(DST_MAJOR).$(call DST_VERSION_PART,MINOR).$(call DST_VERSION_PART,PATCH)
DST_SONAME  := libhrpdistance.so.$(DST_MAJOR)
DST_SOFILE  := libhrpdistance.so.$(DST_VERSION)
DST_PUB_H   := $(sort $(wildcard distance/include/*.h))
DST_PIC_OBJ := $(DST_SRC:%.c=$(BUILD)/pic/%.o)

.PHONY: install uninstall install-check install-libs
install-libs: $(BUILD)/libhrpdistance.a $(BUILD)/$(DST_SOFILE)

$(BUILD)/pic/distance/%.o: distance/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Idistance -fPIC -fno-semantic-interposition -c $< -o $@
$(BUILD)/pic/distance/dst_ellipsoid.o: CFLAGS += -fno-tree-vectorize

$(BUILD)/pic/libhrpdistance.map: $(DST_PUB_H) tools/install/export-map.sh
	@mkdir -p $(dir $@)
	./tools/install/export-map.sh "$(CC)" $(DST_PUB_H) > $@.new
	@mv $@.new $@

$(BUILD)/libhrpdistance.a: $(DST_PIC_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/$(DST_SOFILE): $(DST_PIC_OBJ) $(BUILD)/pic/libhrpdistance.map
	$(CC) $(CFLAGS) -shared -Wl,-soname,$(DST_SONAME) -Wl,-z,defs \
	    -Wl,--version-script=$(BUILD)/pic/libhrpdistance.map -o $@ $(DST_PIC_OBJ) -lm

install: install-libs
	@test -n "$(DST_MAJOR)" || { echo "install: no DST_VERSION_MAJOR in distance/include/dst.h"; exit 1; }
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/hrpplan $(DESTDIR)$(PKGCONFIGDIR)
	install -m 644 $(BUILD)/libhrpdistance.a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(BUILD)/$(DST_SOFILE) $(DESTDIR)$(LIBDIR)/
	ln -sf $(DST_SOFILE) $(DESTDIR)$(LIBDIR)/$(DST_SONAME)
	ln -sf $(DST_SONAME) $(DESTDIR)$(LIBDIR)/libhrpdistance.so
	install -m 644 $(DST_PUB_H) $(DESTDIR)$(INCLUDEDIR)/hrpplan/
	sed -e 's|@PREFIX@|$(PREFIX)|' \
	    -e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))|' \
	    -e 's|@INCLUDEDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))|' \
	    -e 's|@VERSION@|$(DST_VERSION)|' tools/install/hrpdistance.pc.in \
	    > $(DESTDIR)$(PKGCONFIGDIR)/hrpdistance.pc
	@chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/hrpdistance.pc

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libhrpdistance.a $(DESTDIR)$(LIBDIR)/libhrpdistance.so \
	    $(DESTDIR)$(LIBDIR)/$(DST_SONAME) $(DESTDIR)$(LIBDIR)/$(DST_SOFILE) \
	    $(DESTDIR)$(PKGCONFIGDIR)/hrpdistance.pc \
	    $(addprefix $(DESTDIR)$(INCLUDEDIR)/hrpplan/,$(notdir $(DST_PUB_H)))
	@if [ -d $(DESTDIR)$(INCLUDEDIR)/hrpplan ]; then rmdir --ignore-fail-on-non-empty $(DESTDIR)$(INCLUDEDIR)/hrpplan; fi

install-check: install-libs
	@MAKE="$(MAKE)" CC="$(CC)" BUILD="$(BUILD)" ./tools/install/check-install.sh

-include $(DST_PIC_OBJ:.o=.d)
