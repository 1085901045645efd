#!/usr/bin/env python3
"""Writes the collision meshes of robots/arm4 (a small 5-link arm written for hrpplan's
URDF import, docs/URDF.md): upper_arm.stl (binary STL, an octagonal prism along x) and
forearm.stl (ASCII STL, a tapered hexagonal prism along z; the URDF lays it along x with
its collision origin). Run from the repository root; the outputs are committed."""
import math
import struct
import sys


def prism(sides, r0, r1, length, axis, phase):
    """Closed prism: `sides`-gon of circumradius r0 at 0 and r1 at `length` along axis."""
    def point(k, r, h):
        a = phase + 2 * math.pi * k / sides
        u, v = r * math.cos(a), r * math.sin(a)
        return (h, u, v) if axis == 'x' else (u, v, h)
    bottom = [point(k, r0, 0.0) for k in range(sides)]
    top = [point(k, r1, length) for k in range(sides)]
    c0 = (0.0, 0.0, 0.0)
    c1 = (length, 0.0, 0.0) if axis == 'x' else (0.0, 0.0, length)
    tris = []
    for k in range(sides):
        n = (k + 1) % sides
        tris.append((bottom[k], top[n], top[k]))
        tris.append((bottom[k], bottom[n], top[n]))
        tris.append((c0, bottom[n], bottom[k]))
        tris.append((c1, top[k], top[n]))
    return tris


def orient(tris, outward_ref):
    """Flips triangles whose normal points toward the prism's axis (outward normals)."""
    out = []
    for a, b, c in tris:
        n = [(b[1]-a[1])*(c[2]-a[2]) - (b[2]-a[2])*(c[1]-a[1]),
             (b[2]-a[2])*(c[0]-a[0]) - (b[0]-a[0])*(c[2]-a[2]),
             (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])]
        g = [(a[i] + b[i] + c[i]) / 3 for i in range(3)]
        ref = outward_ref(g)
        d = sum(n[i] * (g[i] - ref[i]) for i in range(3))
        out.append((a, b, c) if d >= 0 else (a, c, b))
    return out


def normal(t):
    a, b, c = t
    n = [(b[1]-a[1])*(c[2]-a[2]) - (b[2]-a[2])*(c[1]-a[1]),
         (b[2]-a[2])*(c[0]-a[0]) - (b[0]-a[0])*(c[2]-a[2]),
         (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])]
    s = math.sqrt(sum(x * x for x in n)) or 1.0
    return [x / s for x in n]


def centre_ref(length, axis):
    mid = (length / 2, 0.0, 0.0) if axis == 'x' else (0.0, 0.0, length / 2)
    return lambda g: mid


def write_binary(path, tris):
    with open(path, 'wb') as f:
        f.write(b'arm4 upper arm, hrpplan tools/urdf/arm4_meshes.py'.ljust(80, b' '))
        f.write(struct.pack('<I', len(tris)))
        for t in tris:
            f.write(struct.pack('<3f', *normal(t)))
            for p in t:
                f.write(struct.pack('<3f', *p))
            f.write(struct.pack('<H', 0))


def write_ascii(path, tris):
    with open(path, 'w') as f:
        f.write('solid forearm\n')
        for t in tris:
            f.write('  facet normal %.6g %.6g %.6g\n    outer loop\n' % tuple(normal(t)))
            for p in t:
                f.write('      vertex %.9g %.9g %.9g\n' % p)
            f.write('    endloop\n  endfacet\n')
        f.write('endsolid forearm\n')


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else 'robots/arm4/meshes'
    upper = orient(prism(8, 0.045, 0.045, 0.30, 'x', math.pi / 8), centre_ref(0.30, 'x'))
    fore = orient(prism(6, 0.04, 0.03, 0.25, 'z', 0.0), centre_ref(0.25, 'z'))
    write_binary(out + '/upper_arm.stl', upper)
    write_ascii(out + '/forearm.stl', fore)


if __name__ == '__main__':
    main()
