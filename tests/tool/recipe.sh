#!/bin/sh
# recipe.sh - the classify recipe, driven as a user drives it: `openacl infer
# --recipe classify` on the shapes model of models/shapes/ (its answers on
# the sample pictures, folders, options, every error path), and its pieces
# through recipe_driver (decoding, preprocessing, top-k) checked with numpy.
#
#   sh recipe.sh OPENACL_BINARY RECIPE_DRIVER SOURCE_DIR CASE
#
# Each case runs in an empty scratch directory; a failed check prints what
# was expected and what came, and exits 1.  Exit 77: skipped (Pillow absent).
set -u
BIN=$1
DRV=$2
SRC=$3
CASE=$4
PY=/usr/bin/python3
M=$SRC/models/shapes/shapes.onnx
L=$SRC/models/shapes/labels.txt
IMG=$SRC/models/shapes/images
DYN=$SRC/tests/data/tool/dyn_batch.onnx

. "$(dirname "$0")/lib.sh"
tool_case_setup recipe
run() {
  "$BIN" infer "$@" >"$OUT" 2>"$ERR"
  RC=$?
}
classify() { run --model "$M" --recipe classify "$@"; }
drv() {
  "$DRV" "$@" >"$OUT" 2>"$ERR"
  RC=$?
}
# The exit code and one line on stderr starting "openacl: error:" with
# every given text; a usage error (2) also points at --help.
expect_error() {
  code=$1
  shift
  expect_rc "$code"
  [ "$(wc -l <"$ERR")" -eq 1 ] || fail "stderr should be one line"
  grep -q '^openacl: error: ' "$ERR" || fail "stderr should start with 'openacl: error: '"
  for t in "$@"; do expect_err "$t"; done
  if [ "$code" -eq 2 ]; then expect_err "see 'openacl infer --help'"; fi
}
py() { "$PY" -c "$1" || fail "check failed: $1"; }
# The top-1 class the report gives for picture $1 (its rank-1 row's label).
top1() { awk -v f="$1" '$0 == f ": " || index($0, f ": top-") == 1 {want=1; next} want && $1 == "1" {print $3; exit}' "$OUT"; }
# "path label prob" for every picture of the report, in report order.
answers() { awk '/: top-[0-9]+ of / {p=$1; sub(/:$/, "", p); next} $1 == "1" && p != "" {print p, $3, $2; p=""}' "$OUT"; }
# The model's pictures, minus nothing: each is named <class>_<n>.<ext>.
[ -f "$M" ] || { echo "missing $M (scripts/models/make_shapes_model.py writes it)"; exit 1; }

case $CASE in
top1_samples)
  n=0
  for f in "$IMG"/*; do
    classify --input "$f" --labels "$L"
    expect_rc 0
    want=$(basename "$f" | sed 's/_.*//')
    got=$(top1 "$f")
    [ "$got" = "$want" ] || fail "$f: top-1 '$got', expected '$want'"
    expect_out "first inference"
    n=$((n + 1))
  done
  [ $n -ge 12 ] || fail "only $n sample pictures in $IMG"
  ;;
folder_batched)
  # batch 1 (one picture per execution) against batch 5 (12 = 5 + 5 + 2):
  # same answers, same probabilities to 1e-4, in name order
  classify --input "$IMG" --labels "$L"
  expect_rc 0
  answers >one.txt
  for b in 5 4; do
    classify --input "$IMG" --labels "$L" --dym-batch $b
    expect_rc 0
    answers >b$b.txt
    py "
a = [l.split() for l in open('one.txt')]; b = [l.split() for l in open('b$b.txt')]
assert len(a) == 12 and len(b) == 12, (len(a), len(b))
assert [x[0] for x in a] == sorted(x[0] for x in a), 'not in name order'
for x, y in zip(a, b):
    assert x[:2] == y[:2] and abs(float(x[2]) - float(y[2])) < 1e-4, (x, y)
    assert x[0].split('/')[-1].split('_')[0] == x[1], x"
  done
  ;;
folder_order_and_skips)
  mkdir pics
  cp "$IMG/star_1.png" pics/b.png
  cp "$IMG/circle_2.jpg" pics/a.jpeg
  cp "$IMG/cross_1.png" pics/C.PNG
  cp "$IMG/square_2.jpg" pics/d.JPG
  echo notes >pics/notes.txt
  cp "$IMG/star_1.png" pics/e.bmp
  classify --input pics --labels "$L"
  expect_rc 0
  answers >got.txt
  printf 'pics/C.PNG cross\npics/a.jpeg circle\npics/b.png star\npics/d.JPG square\n' >want.txt
  cut -d' ' -f1,2 got.txt | diff want.txt - >/dev/null || fail "order or answers: $(cat got.txt)"
  ;;
topk)
  classify --input "$IMG/star_1.png" --labels "$L" --topk 3
  expect_rc 0
  expect_out "top-3 of 6 classes"
  [ "$(grep -cE '^ +[0-9]+ +[0-9.]+ +[a-z]+ \([0-9]+\)$' "$OUT")" -eq 3 ] || fail "3 rows expected"
  classify --input "$IMG/star_1.png" --labels "$L" --topk 50
  expect_rc 0
  expect_out "top-6 of 6 classes"
  # the six probabilities sum to 1 and are in decreasing order
  grep -E '^ +[0-9]+ +[0-9.]+ ' "$OUT" | awk '{print $2}' >p.txt
  py "
p = [float(l) for l in open('p.txt')]
assert len(p) == 6 and abs(sum(p) - 1) < 1e-3 and p == sorted(p, reverse=True), p"
  classify --input "$IMG/star_1.png" --labels "$L"
  expect_out "top-5 of 6 classes"
  ;;
no_labels)
  classify --input "$IMG/star_1.png"
  expect_rc 0
  expect_out "class_3"
  awk '$1 == "1" {print $3}' "$OUT" | grep -qx class_3 || fail "top-1 should be class_3 (star)"
  ;;
labels_extra)
  { cat "$L"; echo spare1; echo spare2; } >more.txt
  classify --input "$IMG/star_1.png" --labels more.txt
  expect_rc 0
  expect_err "openacl: warning: --labels more.txt: 8 labels for 6 classes"
  [ "$(top1 "$IMG/star_1.png")" = star ] || fail "top-1 should be star"
  ;;
nhwc_model)
  # the same network behind a Transpose: input [batch,64,64,3]
  py "
import onnx
from onnx import helper, TensorProto
m = onnx.load('$M')
g = m.graph
old = g.input[0].name
g.node.insert(0, helper.make_node('Transpose', ['nhwc'], [old], perm=[0, 3, 1, 2]))
del g.input[0]
g.input.insert(0, helper.make_tensor_value_info('nhwc', TensorProto.FLOAT, ['batch', 64, 64, 3]))
onnx.save(m, 'nhwc.onnx')"
  classify --input "$IMG" --labels "$L"
  answers >nchw.txt
  run --model nhwc.onnx --recipe classify --input "$IMG" --labels "$L"
  expect_rc 0
  answers >nhwc.txt
  py "
a = [l.split() for l in open('nchw.txt')]; b = [l.split() for l in open('nhwc.txt')]
assert len(a) == 12 and len(a) == len(b)
for x, y in zip(a, b): assert x[:2] == y[:2] and abs(float(x[2]) - float(y[2])) < 1e-4, (x, y)"
  run --model nhwc.onnx --recipe classify --input "$IMG/star_1.png" --layout NHWC
  expect_rc 0
  run --model nhwc.onnx --recipe classify --input "$IMG/star_1.png" --layout NCHW
  expect_error 1 "input 'nhwc' has shape [-1,64,64,3]" "for --layout NCHW"
  ;;
open_hw_model)
  # the same network with its picture size left open: [batch,3,height,width]
  py "
import onnx
m = onnx.load('$M')
d = m.graph.input[0].type.tensor_type.shape.dim
d[2].dim_param = 'height'
d[3].dim_param = 'width'
onnx.save(m, 'open_hw.onnx')"
  # the recipe's input_shape hook takes the size from --resize: 64 x 64, the
  # size the network was trained at, so every sample is classified correctly
  # and exactly as the static model does with the same --resize
  classify --input "$IMG" --labels "$L" --resize 64,64
  expect_rc 0
  answers >static.txt
  run --model open_hw.onnx --recipe classify --input "$IMG" --labels "$L" --resize 64,64
  expect_rc 0
  answers >open.txt
  run --model open_hw.onnx --recipe classify --input "$IMG" --labels "$L" --resize 64 --dym-batch 4
  expect_rc 0
  answers >open_n.txt
  py "
import os
a = [l.split() for l in open('static.txt')]; b = [l.split() for l in open('open.txt')]
assert len(a) == 12 and len(a) == len(b), (a, b)
for x, y in zip(a, b): assert x[:2] == y[:2] and abs(float(x[2]) - float(y[2])) < 1e-4, (x, y)
for x in b: assert os.path.basename(x[0]).split('_')[0] == x[1], x
for x in (l.split() for l in open('open_n.txt')): assert os.path.basename(x[0]).split('_')[0] == x[1], x"
  # without --resize the hook gives 224 x 224, as --dym-shape would ...
  run --model open_hw.onnx --recipe classify --input "$IMG/star_1.png" --topk 6 --quiet
  expect_rc 0
  cp "$OUT" default.txt
  run --model open_hw.onnx --recipe classify --input "$IMG/star_1.png" --topk 6 --quiet --dym-shape image:1,3,224,224
  expect_rc 0
  cmp -s "$OUT" default.txt || fail "the default size should be 224 x 224"
  # ... and --dym-shape, when given, wins over the hook
  run --model open_hw.onnx --recipe classify --input "$IMG" --labels "$L" --dym-shape image:1,3,64,64
  expect_rc 0
  answers >given.txt
  classify --input "$IMG" --labels "$L"
  answers >static_default.txt
  cmp -s given.txt static_default.txt || fail "--dym-shape 1,3,64,64 should answer as the static model does"
  ;;
softmax_modes)
  classify --input "$IMG/star_1.png" --labels "$L" --softmax no --topk 6
  expect_rc 0
  expect_out "output as is"
  grep -E '^ +[0-9]+ +-?[0-9.]+ ' "$OUT" | awk '{print $2}' >raw.txt
  classify --input "$IMG/star_1.png" --labels "$L" --softmax yes --topk 6
  expect_out "softmax of the output"
  grep -E '^ +[0-9]+ +[0-9.]+ ' "$OUT" | awk '{print $2}' >soft.txt
  py "
import numpy as np
r = np.array([float(l) for l in open('raw.txt')]); s = np.array([float(l) for l in open('soft.txt')])
assert abs(r.sum() - 1) > 1e-2, 'raw logits should not sum to 1: %s' % r
e = np.exp(r - r.max()); assert np.allclose(e / e.sum(), s, atol=2e-4), (e / e.sum(), s)"
  classify --input "$IMG/star_1.png" --labels "$L"
  expect_out "softmax of the output"
  ;;
mean_std_options)
  # accepted and applied (the numbers are checked in unit_preprocess_*);
  # the shapes model standardises each picture itself, so it still answers
  classify --input "$IMG/star_1.png" --labels "$L" --mean 0.5,0.5,0.5 --std 0.5,0.5,0.5
  expect_rc 0
  [ "$(top1 "$IMG/star_1.png")" = star ] || fail "top-1 should be star"
  classify --input "$IMG/star_1.png" --labels "$L" --mean=0,0,0 --std=1,1,1
  expect_rc 0
  ;;
resize_option)
  for r in 64,64 80 96,72; do
    classify --input "$IMG/triangle_1.png" --labels "$L" --resize $r
    expect_rc 0
    [ "$(top1 "$IMG/triangle_1.png")" = triangle ] || fail "--resize $r: top-1 should be triangle"
  done
  classify --input "$IMG/triangle_1.png" --labels "$L" --resize 32
  expect_error 2 "--resize 32 is smaller than the model's image size 64x64 (H x W)"
  classify --input "$IMG/triangle_1.png" --labels "$L" --resize 100,63
  expect_error 2 "--resize 100,63 is smaller than the model's image size 64x64 (H x W)"
  ;;
help_lists_options)
  run --recipe classify --help
  expect_rc 0
  for o in --labels --topk --mean --std --resize --layout --softmax classify; do expect_out "$o"; done
  ;;
err_labels_missing)
  classify --input "$IMG/star_1.png" --labels nothere.txt
  expect_error 1 "--labels nothere.txt: cannot open: No such file or directory"
  mkdir adir
  classify --input "$IMG/star_1.png" --labels adir
  expect_error 1 "--labels adir: Is a directory"
  ;;
err_labels_short)
  head -n 4 "$L" >short.txt
  classify --input "$IMG/star_1.png" --labels short.txt
  expect_error 1 "--labels short.txt: 4 labels for 6 classes (output 'logits')"
  ;;
err_labels_empty)
  printf '\n\n' >empty.txt
  classify --input "$IMG/star_1.png" --labels empty.txt
  expect_error 1 "--labels empty.txt: the file has no labels"
  ;;
err_corrupt_jpeg)
  # the markers survive, the Huffman tables do not
  py "
d = bytearray(open('$IMG/star_2.jpg', 'rb').read())
i = d.find(b'\xff\xc4'); d[i + 5:i + 40] = b'\xff' * 35
open('bad.jpg', 'wb').write(d)"
  classify --input bad.jpg --labels "$L"
  expect_error 1 "bad.jpg: corrupt or unsupported JPEG"
  if grep -q top- "$OUT"; then fail "no answer expected for a corrupt picture"; fi
  ;;
err_truncated_jpeg)
  head -c 1500 "$IMG/star_2.jpg" >cut.jpg
  classify --input cut.jpg --labels "$L"
  expect_error 1 "cut.jpg: corrupt or unsupported JPEG: Premature end of JPEG file"
  ;;
err_corrupt_png)
  py "
d = bytearray(open('$IMG/star_1.png', 'rb').read())
i = d.find(b'IDAT'); d[i + 30] ^= 0x55
open('bad.png', 'wb').write(d)"
  classify --input bad.png --labels "$L"
  expect_error 1 "bad.png: corrupt or unsupported PNG"
  ;;
err_truncated_png)
  size=$(wc -c <"$IMG/star_1.png")
  head -c $((size / 2)) "$IMG/star_1.png" >cut.png
  classify --input cut.png --labels "$L"
  expect_error 1 "cut.png: corrupt or unsupported PNG"
  ;;
err_not_an_image)
  echo "hello" >fake.png
  classify --input fake.png --labels "$L"
  expect_error 1 "fake.png: not a JPEG or PNG file"
  : >empty.jpg
  classify --input empty.jpg --labels "$L"
  expect_error 1 "empty.jpg: not a JPEG or PNG file (empty)"
  ;;
err_unsupported_extension)
  cp "$IMG/star_1.png" pic.gif
  classify --input pic.gif --labels "$L"
  expect_error 1 "recipe 'classify' does not read 'pic.gif'"
  mkdir none
  echo x >none/a.txt
  classify --input none --labels "$L"
  expect_error 1 "folder 'none' holds no files recipe accepts"
  ;;
err_option_without_recipe)
  run --model "$M" --input "$IMG/star_1.png" --labels "$L"
  expect_error 2 "unknown option '--labels'"
  classify --input "$IMG/star_1.png" --labelz "$L"
  expect_error 2 "unknown option '--labelz'"
  ;;
err_bad_values)
  for bad in "--topk 0" "--topk x" "--topk=" "--mean 1,2" "--mean a,b,c" "--std 0,1,1" "--layout NCWH" "--softmax maybe" \
    "--resize 0" "--resize 10,x" "--labels"; do
    # shellcheck disable=SC2086
    classify --input "$IMG/star_1.png" $bad
    opt=${bad%% *}
    expect_error 2 "${opt%=}"
  done
  ;;
err_not_an_image_model)
  run --model "$DYN" --recipe classify --input "$IMG/star_1.png"
  expect_error 1 "recipe classify: input 'x' has shape [-1,4], expected an RGB image batch [N,3,H,W] (NCHW) or [N,H,W,3] (NHWC)"
  ;;
unit_decode_png_kinds)
  # PNGs written by numpy + zlib in every colour type and depth libpng
  # converts; each must decode to the RGB numpy expects.
  py "
import numpy as np, struct, zlib
def png(name, a, ctype, depth, plte=None, trns=None):
    h, w = a.shape[:2]
    if depth < 8:  # pack pixels, most significant bits first
        per = 8 // depth
        rows = []
        for r in a.reshape(h, w):
            r = np.concatenate([r, np.zeros((-w) % per, r.dtype)]).reshape(-1, per)
            rows.append(sum(r[:, i].astype(np.uint8) << (8 - depth * (i + 1)) for i in range(per)).astype(np.uint8).tobytes())
    else:
        rows = [r.astype('>u2' if depth == 16 else np.uint8).tobytes() for r in a.reshape(h, -1)]
    raw = b''.join(b'\0' + r for r in rows)
    def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
    s = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, depth, ctype, 0, 0, 0))
    if plte is not None: s += chunk(b'PLTE', plte.astype(np.uint8).tobytes())
    if trns is not None: s += chunk(b'tRNS', trns)
    open(name, 'wb').write(s + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))
r = np.random.default_rng(3)
rgb = r.integers(0, 256, (23, 37, 3)); gray = r.integers(0, 256, (23, 37))
alpha = r.integers(0, 256, (23, 37, 1)); pal = r.integers(0, 256, (16, 3)); idx = r.integers(0, 16, (23, 37))
g4 = r.integers(0, 16, (23, 37)); w16 = r.integers(0, 65536, (23, 37, 3))
cases = {
  'rgb8': (rgb, 2, 8, None, None, rgb),
  'rgba8': (np.concatenate([rgb, alpha], 2), 6, 8, None, None, rgb),
  'gray8': (gray, 0, 8, None, None, np.repeat(gray[..., None], 3, 2)),
  'graya8': (np.stack([gray, alpha[..., 0]], 2), 4, 8, None, None, np.repeat(gray[..., None], 3, 2)),
  'gray4': (g4, 0, 4, None, None, np.repeat(g4[..., None] * 17, 3, 2)),
  'pal4': (idx, 3, 4, pal, None, pal[idx]),
  'pal8trns': (idx, 3, 8, pal, bytes([0, 128]), pal[idx]),
  'rgb16': (w16, 2, 16, None, None, w16 >> 8),
}
for k, (a, ct, d, p, t, want) in cases.items():
    png(k + '.png', a, ct, d, p, t); np.save(k + '.want.npy', want.astype(np.uint8))
"
  for k in rgb8 rgba8 gray8 graya8 gray4 pal4 pal8trns rgb16; do
    drv decode $k.png $k.rgb
    expect_rc 0
    expect_out "37 23"
    py "
import numpy as np
got = np.fromfile('$k.rgb', np.uint8).reshape(23, 37, 3); want = np.load('$k.want.npy')
assert np.array_equal(got, want), ('$k', np.argwhere(got != want)[:3])"
  done
  ;;
unit_decode_jpeg)
  # the sample JPEGs decode to their stated size; Pillow, when present,
  # agrees to within rounding (both use libjpeg)
  for f in "$IMG"/*.jpg; do
    drv decode "$f" pic.rgb
    expect_rc 0
    py "
import numpy as np, struct
d = open('$f', 'rb').read(); i = 2
while True:
    assert d[i] == 0xff; m = d[i + 1]; n = struct.unpack('>H', d[i + 2:i + 4])[0]
    if m in (0xc0, 0xc1, 0xc2): h, w = struct.unpack('>HH', d[i + 5:i + 9]); break
    i += 2 + n
assert open('$OUT').read().split() == [str(w), str(h)], open('$OUT').read()
got = np.fromfile('pic.rgb', np.uint8).reshape(h, w, 3)
try:
    from PIL import Image
except ImportError:
    raise SystemExit(0)
ref = np.asarray(Image.open('$f').convert('RGB'), np.int16)
assert np.abs(got.astype(np.int16) - ref).max() <= 2, np.abs(got - ref).max()"
  done
  ;;
unit_preprocess_matches_pillow)
  # the recipe's default preprocessing against the one the model was
  # trained with (scripts/models/make_shapes_model.py, Pillow's resize)
  "$PY" -c "import PIL" 2>/dev/null || { echo "Pillow (python3-pil) not installed: skipped"; exit 77; }
  for f in "$IMG"/*; do
    drv preprocess "$f" 1,3,64,64 0 got.f32
    expect_rc 0
    py "
import numpy as np
from PIL import Image
img = Image.open('$f').convert('RGB'); w, h = img.size; s = 73 / min(w, h)
nw, nh = max(64, round(w * s)), max(64, round(h * s))
img = img.resize((nw, nh), Image.BILINEAR); x0, y0 = (nw - 64) // 2, (nh - 64) // 2
a = np.asarray(img.crop((x0, y0, x0 + 64, y0 + 64)), np.float32) / 255
want = ((a - [0.485, 0.456, 0.406]) / [0.229, 0.224, 0.225]).transpose(2, 0, 1)
got = np.fromfile('got.f32', np.float32).reshape(3, 64, 64)
d = np.abs(got - want)
# Pillow rounds to 8 bits between its two passes, the recipe does not
assert d.max() < 0.05 and d.mean() < 0.01, (d.max(), d.mean())"
  done
  ;;
unit_layouts)
  # item 1 of a batch of 2, NCHW and NHWC, custom mean/std: the same
  # numbers transposed, item 0 untouched, values (v/255 - mean)/std
  f=$IMG/circle_1.png
  drv preprocess "$f" 2,3,64,64 1 nchw.f32 --mean 0.5,0.25,0 --std 0.5,0.5,2
  expect_rc 0
  drv preprocess "$f" 2,64,64,3 1 nhwc.f32 --mean 0.5,0.25,0 --std 0.5,0.5,2
  expect_rc 0
  drv preprocess "$f" 1,3,64,64 0 plain.f32 --mean 0,0,0 --std 1,1,1
  expect_rc 0
  py "
import numpy as np
a = np.fromfile('nchw.f32', np.float32).reshape(2, 3, 64, 64); b = np.fromfile('nhwc.f32', np.float32).reshape(2, 64, 64, 3)
p = np.fromfile('plain.f32', np.float32).reshape(3, 64, 64)
assert not a[0].any() and not b[0].any(), 'item 0 written'
assert np.allclose(a[1], b[1].transpose(2, 0, 1), atol=1e-6)
want = (p - np.array([0.5, 0.25, 0], np.float32)[:, None, None]) / np.array([0.5, 0.5, 2], np.float32)[:, None, None]
assert np.allclose(a[1], want, atol=1e-5) and 0 <= p.min() and p.max() <= 1 and p.max() > 0.5"
  drv preprocess "$f" 1,64,3,64 0 x.f32
  expect_error 1 "input 'image' has shape [1,64,3,64], expected an RGB image batch"
  ;;
unit_topk_softmax)
  drv postprocess 4 1 0,0,0,0,1,3,2,0 --topk 2
  expect_rc 0
  expect_out "scores: top-2 of 4 classes (softmax of the output)"
  py "
import numpy as np
rows = [l.split() for l in open('$OUT') if l.split()[0].isdigit()]
e = np.exp([1, 3, 2, 0] - np.float64(3)); p = e / e.sum()
assert [r[2] for r in rows] == ['class_1', 'class_2'], rows
assert abs(float(rows[0][1]) - p[1]) < 1e-4 and abs(float(rows[1][1]) - p[2]) < 1e-4, rows"
  # already a distribution: printed as is; ties keep the lower index first
  drv postprocess 4 0 0.25,0.25,0.4,0.1 --topk 3
  expect_out "(output as is)"
  awk '$1 ~ /^[0-9]+$/ {print $3}' "$OUT" | tr '\n' ' ' | grep -qx "class_2 class_0 class_1 " || fail "order"
  drv postprocess 4 0 0.25,0.25,0.4,0.1 --softmax yes
  expect_out "(softmax of the output)"
  drv postprocess 6 0 1,2,3,4,5,6 --labels /dev/null
  expect_error 1 "--labels /dev/null: the file has no labels"
  ;;
*)
  echo "recipe.sh: unknown case '$CASE'"
  exit 2
  ;;
esac
exit 0
