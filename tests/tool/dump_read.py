"""dump_read.py - reads one openacl / vendor dump file with the real protobuf
library (toolkit.dump.DumpData, built here from its field table; prof-dump
§5.3) and checks it against the .npy files written beside it.

  python3 dump_read.py FILE     prints op_name, inputs and outputs; exits 1 on a mismatch
"""
import glob
import struct
import sys

import numpy as np
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

F = descriptor_pb2.FieldDescriptorProto


def _schema():
    fp = descriptor_pb2.FileDescriptorProto(name="dump_task.proto", package="toolkit.dump", syntax="proto3")

    def msg(name, fields):
        m = fp.message_type.add(name=name)
        for num, fname, ftype, label, tname in fields:
            f = m.field.add(name=fname, number=num, type=ftype, label=label or F.LABEL_OPTIONAL)
            if tname:
                f.type_name = ".toolkit.dump." + tname
    rep = F.LABEL_REPEATED
    msg("Shape", [(1, "dim", F.TYPE_UINT64, rep, None)])
    msg("OpInput", [(1, "data_type", F.TYPE_INT32, 0, None), (2, "format", F.TYPE_INT32, 0, None),
                    (3, "shape", F.TYPE_MESSAGE, 0, "Shape"), (4, "data", F.TYPE_BYTES, 0, None),
                    (5, "size", F.TYPE_UINT64, 0, None), (6, "original_shape", F.TYPE_MESSAGE, 0, "Shape"),
                    (7, "sub_format", F.TYPE_INT32, 0, None), (8, "address", F.TYPE_UINT64, 0, None),
                    (9, "offset", F.TYPE_UINT64, 0, None), (10, "arg_index", F.TYPE_UINT32, 0, None),
                    (11, "input_type", F.TYPE_UINT32, 0, None)])
    msg("OpOutput", [(1, "data_type", F.TYPE_INT32, 0, None), (2, "format", F.TYPE_INT32, 0, None),
                     (3, "shape", F.TYPE_MESSAGE, 0, "Shape"), (5, "data", F.TYPE_BYTES, 0, None),
                     (6, "size", F.TYPE_UINT64, 0, None), (7, "original_shape", F.TYPE_MESSAGE, 0, "Shape"),
                     (8, "sub_format", F.TYPE_INT32, 0, None), (9, "address", F.TYPE_UINT64, 0, None),
                     (11, "offset", F.TYPE_UINT64, 0, None), (12, "arg_index", F.TYPE_UINT32, 0, None)])
    msg("OpAttr", [(1, "name", F.TYPE_STRING, 0, None), (2, "value", F.TYPE_STRING, 0, None)])
    msg("DumpData", [(1, "version", F.TYPE_STRING, 0, None), (2, "dump_time", F.TYPE_UINT64, 0, None),
                     (3, "output", F.TYPE_MESSAGE, rep, "OpOutput"), (4, "input", F.TYPE_MESSAGE, rep, "OpInput"),
                     (6, "op_name", F.TYPE_STRING, 0, None), (7, "attr", F.TYPE_MESSAGE, rep, "OpAttr"),
                     (9, "dfx_message", F.TYPE_STRING, 0, None)])
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fp)
    desc = pool.FindMessageTypeByName("toolkit.dump.DumpData")
    if hasattr(message_factory, "GetMessageClass"):
        return message_factory.GetMessageClass(desc)
    return message_factory.MessageFactory(pool).GetPrototype(desc)


DTYPES = {1: np.float32, 2: np.float16, 3: np.int8, 4: np.uint8, 5: np.int16, 6: np.uint16, 7: np.int32,
          8: np.int64, 9: np.uint32, 10: np.uint64, 11: np.bool_, 12: np.float64}


def read(path):
    """(header, [(kind, index, array)]) of one dump file."""
    raw = open(path, "rb").read()
    (n,) = struct.unpack("<Q", raw[:8])
    head = _schema()()
    head.ParseFromString(raw[8:8 + n])
    pos, out = 8 + n, []
    for kind, items in (("input", head.input), ("output", head.output)):
        for i, t in enumerate(items):
            a = np.frombuffer(raw[pos:pos + t.size], DTYPES[t.data_type]).reshape(list(t.shape.dim))
            out.append((kind, i, a))
            pos += t.size
    assert pos == len(raw), "%s: %d bytes left after the tensors" % (path, len(raw) - pos)
    return head, out


def main():
    head, tensors = read(sys.argv[1])
    assert head.version == "2.0", head.version
    print("op_name", head.op_name)
    for kind, i, a in tensors:
        npy = glob.glob("%s.%s.%d.*.npy" % (sys.argv[1], kind, i))
        assert len(npy) == 1, npy
        b = np.load(npy[0])
        assert b.dtype == a.dtype and b.shape == a.shape and np.array_equal(a, b, equal_nan=True), npy[0]
        print(kind, i, a.dtype, a.shape)


if __name__ == "__main__":
    main()
