/* pln_meshio.c — mesh files of every format into a DstMesh (pln_meshio.h): STL and OBJ by
 * libdistance's readers, Collada, PLY and OFF through assimp's C API. */
#include "model/pln_meshio.h"

#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_file.h"
#include "base/pln_tolerance.h"
#include "dst_tolerance.h"

typedef enum { FMT_NONE, FMT_DST, FMT_ASSIMP } MeshFormat;

/* the format of a path by its extension; ext[8] receives it lower-case, without the dot. */
static MeshFormat mesh_format(const char *path, char ext[8])
{
    static const char *const dst_exts[] = {"stl", "obj", NULL};
    static const char *const assimp_exts[] = {"dae", "ply", "off", NULL};
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    size_t n;
    ext[0] = '\0';
    if (dot == NULL || (slash != NULL && dot < slash) || dot[1] == '\0') return FMT_NONE;
    n = strlen(dot + 1);
    if (n >= 8) return FMT_NONE;
    for (size_t i = 0; i <= n; ++i) ext[i] = (char)tolower((unsigned char)dot[1 + i]);
    for (int i = 0; dst_exts[i] != NULL; ++i) {
        if (strcmp(ext, dst_exts[i]) == 0) return FMT_DST;
    }
    for (int i = 0; assimp_exts[i] != NULL; ++i) {
        if (strcmp(ext, assimp_exts[i]) == 0) return FMT_ASSIMP;
    }
    return FMT_NONE;
}

int pln_mesh_format_supported(const char *path)
{
    char ext[8];
    return path != NULL && mesh_format(path, ext) != FMT_NONE;
}

/* assimp's message of the last failure, made one line (it may hold newlines). */
static void assimp_message(char *out, size_t size)
{
    const char *m = aiGetErrorString();
    size_t k = 0;
    if (m == NULL || m[0] == '\0') m = "unknown error";
    for (; m[k] != '\0' && k + 1 < size; ++k) {
        out[k] = (m[k] == '\n' || m[k] == '\r' || m[k] == '\t') ? ' ' : m[k];
    }
    out[k] = '\0';
    while (k > 0 && out[k - 1] == ' ') out[--k] = '\0';
}

typedef struct WeldKey {
    double x[3];
    int index; /* position in the unwelded vertex array */
} WeldKey;

static int weld_key_cmp(const void *a, const void *b)
{
    const WeldKey *p = a, *q = b;
    for (int c = 0; c < 3; ++c) {
        if (p->x[c] < q->x[c]) return -1;
        if (p->x[c] > q->x[c]) return 1;
    }
    return (p->index > q->index) - (p->index < q->index);
}

/* Collada's up axis, turned by assimp into its +y (the loader's root transform), turned
 * here into hrpplan's +z: (x, y, z) -> (x, -z, y), a rotation of +90 degrees about x. */
static void y_up_to_z_up(double x[3])
{
    double y = x[1];
    x[1] = -x[2];
    x[2] = y;
}

/* The triangles of every mesh of a flattened scene (aiProcess_PreTransformVertices: node
 * transforms already applied), welded by exact equality of coordinates, into *mesh. */
static PlnStatus scene_to_mesh(const char *path, const struct aiScene *scene, int y_up,
                               DstMesh *mesh, int *skipped, char *err, size_t err_size)
{
    long long nv = 0, nt = 0;
    WeldKey *keys = NULL;
    int *remap = NULL, *tris = NULL;
    double *verts = NULL;
    int n_unique = 0;
    PlnStatus st = PLN_OK;
    char derr[512];

    *skipped = 0;
    if (scene->mNumMeshes == 0 || scene->mMeshes == NULL) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "%s: empty mesh: no geometry in the file", path);
    }
    /* count vertices and triangles; points and lines are skipped */
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const struct aiMesh *am = scene->mMeshes[m];
        nv += am->mNumVertices;
        for (unsigned f = 0; f < am->mNumFaces; ++f) {
            if (am->mFaces[f].mNumIndices == 3) ++nt;
            else ++*skipped;
        }
    }
    if (nt == 0) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "%s: empty mesh: no triangle in the file%s", path,
                          *skipped > 0 ? " (only points or lines)" : "");
    }
    if (nv > DST_MESH_MAX_ELEMENTS || nt > DST_MESH_MAX_ELEMENTS) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "%s: %lld vertices and %lld triangles: more than %d",
                          path, nv, nt, DST_MESH_MAX_ELEMENTS);
    }
    keys = malloc((size_t)(nv > 0 ? nv : 1) * sizeof *keys);
    remap = malloc((size_t)(nv > 0 ? nv : 1) * sizeof *remap);
    tris = malloc((size_t)nt * 3 * sizeof *tris);
    verts = malloc((size_t)(nv > 0 ? nv : 1) * 3 * sizeof *verts);
    if (keys == NULL || remap == NULL || tris == NULL || verts == NULL) {
        st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "%s: out of memory", path);
        goto done;
    }

    /* every vertex, checked finite and of sane size, turned to z up */
    {
        long long k = 0;
        for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
            const struct aiMesh *am = scene->mMeshes[m];
            for (unsigned v = 0; v < am->mNumVertices; ++v, ++k) {
                double x[3] = {am->mVertices[v].x, am->mVertices[v].y, am->mVertices[v].z};
                if (y_up) y_up_to_z_up(x);
                for (int c = 0; c < 3; ++c) {
                    if (!isfinite(x[c]) || fabs(x[c]) > DST_MESH_MAX_COORD) {
                        st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                        "%s: mesh %u vertex %u: coordinate %g is %s (|x| <= %g m)", path, m, v,
                                        x[c], isfinite(x[c]) ? "too large" : "not finite", DST_MESH_MAX_COORD);
                        goto done;
                    }
                    keys[k].x[c] = x[c] + 0.0; /* -0 becomes +0: one vertex, one bit pattern */
                }
                keys[k].index = (int)k;
            }
        }
    }
    /* weld: equal coordinates, one vertex */
    qsort(keys, (size_t)nv, sizeof *keys, weld_key_cmp);
    for (long long k = 0; k < nv; ++k) {
        if (k == 0 || keys[k].x[0] != keys[k - 1].x[0] || keys[k].x[1] != keys[k - 1].x[1] ||
            keys[k].x[2] != keys[k - 1].x[2]) {
            memcpy(&verts[3 * n_unique], keys[k].x, sizeof keys[k].x);
            ++n_unique;
        }
        remap[keys[k].index] = n_unique - 1;
    }
    /* triangles, indices checked against their mesh */
    {
        long long t = 0, base = 0;
        for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
            const struct aiMesh *am = scene->mMeshes[m];
            for (unsigned f = 0; f < am->mNumFaces; ++f) {
                const struct aiFace *face = &am->mFaces[f];
                if (face->mNumIndices != 3) continue;
                for (int c = 0; c < 3; ++c) {
                    if (face->mIndices[c] >= am->mNumVertices) {
                        st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                        "%s: mesh %u face %u: vertex index %u out of range (%u vertices)", path,
                                        m, f, face->mIndices[c], am->mNumVertices);
                        goto done;
                    }
                    tris[3 * t + c] = remap[base + face->mIndices[c]];
                }
                ++t;
            }
            base += am->mNumVertices;
        }
    }
    if (dst_mesh_create(verts, n_unique, tris, (int)nt, mesh, derr, sizeof derr) != DST_OK) {
        st = pln_errorf(PLN_ERR_INVALID, err, err_size, "%s: %s", path, derr);
    }
done:
    free(keys);
    free(remap);
    free(tris);
    free(verts);
    return st;
}

/* A Collada, PLY or OFF file through assimp, from memory (the bytes hrpplan read). */
static PlnStatus read_assimp(const char *path, const char *ext, DstMesh *mesh, int *skipped, char *err,
                             size_t err_size)
{
    char *data = NULL;
    size_t size = 0;
    char msg[400];
    struct aiPropertyStore *props;
    const struct aiScene *scene;
    PlnStatus st = pln_file_read_input(path, "mesh file", PLN_MAX_MESH_BYTES, &data, &size, err, err_size);
    if (st != PLN_OK) return st;
    if (size == 0) {
        free(data);
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "%s: empty mesh: the file is empty", path);
    }
    if (size > (size_t)0xffffffffu) {
        free(data);
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "%s: larger than 4 GiB", path);
    }
    props = aiCreatePropertyStore();
    if (props == NULL) {
        free(data);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "%s: out of memory", path);
    }
    /* no dummy skeleton geometry for a file with bones and no mesh */
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_NO_SKELETON_MESHES, 1);
    scene = aiImportFileFromMemoryWithProperties(
        data, (unsigned)size, aiProcess_Triangulate | aiProcess_PreTransformVertices | aiProcess_ValidateDataStructure,
        ext, props);
    aiReleasePropertyStore(props);
    free(data);
    if (scene == NULL) {
        /* assimp gives no line numbers; a failed validation of what its loader built means
         * an index out of range or fewer elements than the file's header announces */
        assimp_message(msg, sizeof msg);
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "%s: cannot read as %s: %s%s", path,
                          strcmp(ext, "dae") == 0 ? "Collada" : strcmp(ext, "ply") == 0 ? "PLY" : "OFF",
                          strncmp(msg, "Validation failed", 17) == 0
                              ? "inconsistent content (a vertex index out of range, or fewer elements than "
                                "the header announces): assimp: "
                              : "",
                          msg);
    }
    /* the Collada loader turns every up axis into +y; PLY and OFF have none */
    st = scene_to_mesh(path, scene, strcmp(ext, "dae") == 0, mesh, skipped, err, err_size);
    aiReleaseImport(scene);
    return st;
}

PlnStatus pln_mesh_read_info(const char *path, DstMesh *mesh, PlnMeshInfo *info, char *err, size_t err_size)
{
    DstMeshReport rep;
    char ext[8];
    int skipped = 0;
    MeshFormat fmt = mesh_format(path, ext);
    PlnStatus st;
    DstStatus ds;

    memset(mesh, 0, sizeof *mesh);
    if (fmt == FMT_NONE) {
        if (ext[0] == '\0') {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "%s: no file extension to tell the mesh format (hrpplan reads .stl, .obj, "
                              ".dae, .ply and .off)", path);
        }
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s: unknown mesh format '.%s' (hrpplan reads .stl, .obj, .dae, .ply and .off)", path,
                          ext);
    }
    if (fmt == FMT_DST) {
        char derr[512];
        ds = dst_mesh_create_from_file(path, mesh, derr, sizeof derr);
        if (ds != DST_OK) {
            return pln_errorf(ds == DST_FAILED ? PLN_ERR_NOMEM : PLN_ERR_INVALID, err, err_size, "%s", derr);
        }
    } else if ((st = read_assimp(path, ext, mesh, &skipped, err, err_size)) != PLN_OK) {
        dst_mesh_destroy(mesh);
        return st;
    }
    ds = dst_mesh_validate(mesh, &rep);
    if (ds != DST_OK) {
        dst_mesh_destroy(mesh);
        return pln_errorf(ds == DST_FAILED ? PLN_ERR_NOMEM : PLN_ERR_INVALID, err, err_size,
                          "%s: cannot be checked", path);
    }
    if (rep.n_degenerate >= mesh->n_triangles) {
        st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                        "%s: degenerate mesh: all %d of its triangles have zero area "
                        "(a point, a line, or repeated indices): it bounds no solid",
                        path, mesh->n_triangles);
        dst_mesh_destroy(mesh);
        return st;
    }
    if (info != NULL) {
        memset(info, 0, sizeof *info);
        memcpy(info->format, ext, sizeof info->format);
        info->via_assimp = fmt == FMT_ASSIMP;
        info->n_skipped_primitives = skipped;
        info->report = rep;
    }
    return PLN_OK;
}

PlnStatus pln_mesh_read(const char *path, DstMesh *mesh, char *err, size_t err_size)
{
    return pln_mesh_read_info(path, mesh, NULL, err, err_size);
}

PlnStatus pln_mesh_read_scaled(const char *path, const double *scale, DstMesh *mesh, char *err,
                               size_t err_size)
{
    PlnStatus st = pln_mesh_read_info(path, mesh, NULL, err, err_size);
    if (st != PLN_OK || scale == NULL) return st;
    for (int v = 0; v < mesh->n_vertices; ++v) {
        for (int d = 0; d < 3; ++d) mesh->vertices[v][d] *= scale[d];
    }
    return PLN_OK;
}

/* appends "n what(s)" to out when n > 0. */
static int warn_item(char *out, size_t size, size_t *used, int n, const char *one, const char *many)
{
    int w;
    if (n <= 0) return 0;
    if (*used + 1 >= size) return 1; /* full: the list is cut here */
    w = snprintf(out + *used, size - *used, "%s%d %s", *used > 0 ? ", " : "", n, n == 1 ? one : many);
    if (w > 0) *used = *used + (size_t)w < size ? *used + (size_t)w : size - 1;
    return 1;
}

int pln_mesh_info_warnings(const PlnMeshInfo *info, char *out, size_t size)
{
    size_t used = 0;
    int kinds = 0;
    const DstMeshReport *r = &info->report;
    if (size == 0) return 0;
    out[0] = '\0';
    kinds += warn_item(out, size, &used, r->n_open_edges, "open edge (a hole in the surface)",
                       "open edges (holes in the surface)");
    kinds += warn_item(out, size, &used, r->n_nonmanifold_edges, "non-manifold edge (3 or more triangles)",
                       "non-manifold edges (3 or more triangles)");
    kinds += warn_item(out, size, &used, r->n_inconsistent_edges, "inconsistently oriented edge",
                       "inconsistently oriented edges");
    kinds += warn_item(out, size, &used, r->n_degenerate, "degenerate triangle (zero area)",
                       "degenerate triangles (zero area)");
    kinds += warn_item(out, size, &used, info->n_skipped_primitives, "point or line skipped",
                       "points or lines skipped");
    return kinds;
}
