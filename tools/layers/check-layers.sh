#!/bin/sh
# check-layers.sh — the include rule of docs/ARCHITECTURE.md, checked on every
# `#include "..."` of planner/ and distance/.
#
#   planner/ is split into layer folders, lowest first:
#       base < model < motion < problem < output < cli
#   A planner file includes headers of its own layer and of lower layers only. Planner
#   headers are named by layer path ("model/pln_robot.h", from -Iplanner), distance
#   headers by name from distance/include/ (the library's public headers).
#   distance/ never includes anything of planner/; planner/ never includes a distance
#   header outside distance/include/ (the *_internal.h headers are the library's own).
#   No file may reach itself through includes (no cycle).
#
# Usage: tools/layers/check-layers.sh [ROOT]   (ROOT: the repository, default ../.. of
# this script). Prints every violation as `path:line: error: ...` (path relative to ROOT)
# and exits 1 if there is one; prints one summary line and exits 0 otherwise; exits 2
# for a usage error. POSIX sh + awk (mawk is enough).
set -u

LAYERS="base model motion problem output cli"
# includes that name build products, not files of the tree: not resolved, not checked
GENERATED_PATTERN='(\.inc$|^generated/)'

here=$(cd "$(dirname "$0")" && pwd)
root=${1:-$here/../..}
if [ $# -gt 1 ]; then
    echo "usage: check-layers.sh [ROOT]" >&2
    exit 2
fi
if [ ! -d "$root" ] || [ ! -d "$root/planner" ]; then
    echo "check-layers.sh: $root: not a directory with planner/ in it" >&2
    exit 2
fi
cd "$root" || exit 2

# every source and header, sorted, relative to ROOT
files=$(find planner distance -type f \( -name '*.c' -o -name '*.h' \) 2>/dev/null | LC_ALL=C sort)
[ -n "$files" ] || { echo "check-layers.sh: no sources under $root" >&2; exit 2; }

# "file<TAB>line<TAB>included name" for every quoted include at the start of a line
# shellcheck disable=SC2086
awk '
    FNR == 1 { in_comment = 0 }
    {
        line = $0
        # drop block comments that open or close on this line (good enough for includes)
        if (in_comment) {
            if (index(line, "*/") == 0) next
            line = substr(line, index(line, "*/") + 2)
            in_comment = 0
        }
        while (index(line, "/*") > 0) {
            start = index(line, "/*")
            rest = substr(line, start + 2)
            if (index(rest, "*/") == 0) { line = substr(line, 1, start - 1); in_comment = 1; break }
            line = substr(line, 1, start - 1) substr(rest, index(rest, "*/") + 2)
        }
        if (line ~ /^[ \t]*#[ \t]*include[ \t]*"/) {
            sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", line)
            sub(/".*$/, "", line)
            printf "%s\t%d\t%s\n", FILENAME, FNR, line
        }
    }
' $files | awk -F '\t' -v layers="$LAYERS" -v generated="$GENERATED_PATTERN" -v filelist="$files" '
    function dirname(p,    d) { d = p; sub(/\/[^\/]*$/, "", d); return d == p ? "." : d }
    # a/b/../c -> a/c, ./a -> a
    function normalize(p,    n, parts, out, i, k) {
        n = split(p, parts, "/")
        k = 0
        for (i = 1; i <= n; ++i) {
            if (parts[i] == "" || parts[i] == ".") continue
            if (parts[i] == ".." && k > 0 && out[k] != "..") { --k; continue }
            out[++k] = parts[i]
        }
        p = ""
        for (i = 1; i <= k; ++i) p = p (i > 1 ? "/" : "") out[i]
        return p
    }
    function resolve(from, name,    c) {
        c = normalize(dirname(from) "/" name); if (c in exists) return c
        c = normalize("planner/" name);          if (c in exists) return c
        c = normalize("distance/include/" name); if (c in exists) return c
        c = normalize("distance/" name);         if (c in exists) return c
        return ""
    }
    # layer rank of a file: 0 for distance/, 1.. for the planner layers, -1 outside any
    function rank(f,    parts, n) {
        if (f ~ /^distance\//) return 0
        n = split(f, parts, "/")
        if (parts[1] == "planner" && n >= 3 && (parts[2] in layer_rank)) return layer_rank[parts[2]]
        return -1
    }
    function layer_name(f,    parts) { split(f, parts, "/"); return f ~ /^distance\// ? "distance" : parts[2] }
    function report(f, l, msg) { printf "%s:%d: error: %s\n", f, l, msg > "/dev/stderr"; ++errors }
    BEGIN {
        n_layers = split(layers, lname, " ")
        order = ""
        for (i = 1; i <= n_layers; ++i) { layer_rank[lname[i]] = i; order = order (i > 1 ? " < " : "") lname[i] }
        n_files = split(filelist, flist, "\n")
        for (i = 1; i <= n_files; ++i) if (flist[i] != "") exists[flist[i]] = 1
        for (i = 1; i <= n_files; ++i) {
            f = flist[i]
            if (f != "" && f ~ /^planner\// && rank(f) < 0)
                report(f, 1, "not in a layer folder (planner/<layer>/ with layer one of " layers ")")
        }
    }
    {
        from = $1; ln = $2; name = $3; ++includes
        if (name ~ generated) next
        to = resolve(from, name)
        if (to == "") { report(from, ln, "cannot resolve include \"" name "\""); next }
        rf = rank(from); rt = rank(to)
        if (from ~ /^distance\// && to ~ /^planner\//)
            report(from, ln, "distance/ includes " to ": the library never includes planner/")
        else if (from ~ /^planner\// && to ~ /^distance\// && to !~ /^distance\/include\//)
            report(from, ln, "includes " to ", an internal header of distance/; planner/ uses distance/include/ only")
        else if (rf > 0 && rt > rf)
            report(from, ln, layer_name(from) " includes " to " (" layer_name(to) "), a higher layer; order is " order)
        # the edge, for the cycle search
        edge_to[from, ++n_edges_of[from]] = to
        edge_line[from, n_edges_of[from]] = ln
    }
    # depth-first search from every file; colour 1 on the stack, 2 done
    function visit(f,    i, g) {
        colour[f] = 1
        stack[++depth] = f
        for (i = 1; i <= n_edges_of[f]; ++i) {
            g = edge_to[f, i]
            stack_line[depth] = edge_line[f, i]
            if (colour[g] == 1) cycle(g)
            else if (colour[g] == 0) visit(g)
        }
        --depth
        colour[f] = 2
    }
    function cycle(g,    i, k, chain) {
        for (k = depth; k >= 1 && stack[k] != g; --k) ;
        chain = ""
        for (i = k; i <= depth; ++i) chain = chain stack[i] " -> "
        report(stack[depth], stack_line[depth], "include cycle: " chain g)
    }
    END {
        for (i = 1; i <= n_files; ++i) if (flist[i] != "") colour[flist[i]] = 0
        depth = 0
        for (i = 1; i <= n_files; ++i) if (flist[i] != "" && colour[flist[i]] == 0) visit(flist[i])
        if (errors > 0) exit 1
        printf "layers: %d files, %d includes, no back-include, no cycle\n", n_files, includes
    }
'
