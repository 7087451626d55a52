#!/usr/bin/env python3
"""Makes the NetCDF files of heat2d's hostile-input tests and of the NetCDF
fuzz target's seed corpus (tests/fuzz/corpus/netcdf): small valid files of
every kind heat2d writes and reads, and crafted ones.

usage: netcdf_craft.py HEAT2D OUT_DIR            every kind below into OUT_DIR
       netcdf_craft.py --mutants HEAT2D BASE.nc N SEED OUT_DIR
                                                 N one-byte mutants of BASE.nc;
                                                 those that crash or hang the
                                                 NetCDF library (heat2d says so)
                                                 are kept in OUT_DIR

Valid: heat2d's own field and series, f64 and f32, a deflated series (all
NetCDF-4), and a series and a field in the classic formats (CDF5, 64-bit
offset), written with Python's netCDF4. Crafted (the test expects each
one's exact refusal, so the corpus keeps the files this made, not new ones):
  long_step.nc     'step' on a dimension of its own, longer than u's records
  records_2p61.nc  a CDF5 series whose header claims 2^61 records
  step_2p27.nc     a NetCDF-4 series with one step at record 2^27
  torn.nc          NetCDF-4, steps 1 2 3 set, the field of step 2 never written
  torn_extent.nc   NetCDF-4, step 2 set past the records u holds
  torn_classic.nc  CDF5, step 2 set, its field the library's fill
Named inputs (the test expects each one's values or exact refusal):
  field_yx.nc      u(y, x), cell (i, j) = (i + 10 j) / 1000 inside, 0 on the boundary
  field_xy.nc      the same field as u(x, y)
  packed.nc        the same as a short u(y, x) with scale_factor 0.001
  named.nc         the same as h(y, x) (no u), and a series h(time, y, x) of
                   it at steps 0 and 5 as hs, with step(time)
  fill.nc          float u(y, x), _FillValue -999 at cell (3, 2)
  missing.nc       u(y, x), missing_value 1e20 at cell (4, 1)
  three_d.nc       u(z, y, x), no step variable
  misnamed.nc      u(a, b)
  text_u.nc        u(y, x) of characters
  twice.nc         a series whose steps are 0, 10, 10
CF attributes other readers apply (64-bit offset files; each read or refused
as netCDF-Java and Python's netCDF4 read it):
  unsigned.nc      the same field as a short u(y, x), _Unsigned "true", each
                   raw value 40000 + (i + 10 j) (negative as signed),
                   scale_factor 0.001, add_offset -40
  unsigned_bad.nc  the same with _Unsigned "yes"
  valid_range.nc   u(y, x), valid_range 0 to 0.04 (cell (1, 4) holds 0.041)
  valid_min.nc     u(y, x), valid_min 0, cell (2, 3) -1
  valid_max.nc     u(y, x), valid_max 0.045 (cell (6, 4) holds 0.046)
  step_fill.nc     a series whose step has _FillValue 10, steps 0, 10, 20
  step_2p53.nc     a NetCDF-4 series whose steps are 0 and 2^53 + 2
"""
import os
import random
import subprocess
import sys

import netCDF4
import numpy as np

NX, NY = 8, 6


def heat2d_files(heat2d, out):
    run = [heat2d, "run", "--method", "cpu", "--nx", "5", "--ny", "5", "--steps", "2"]
    subprocess.run(run + ["--save", f"{out}/field_f64.nc", "--output-every", "1",
                          "--save-every", f"{out}/series_f64.nc"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(run + ["--precision", "f32", "--save", f"{out}/field_f32.nc",
                          "--output-every", "1", "--save-every", f"{out}/series_f32.nc"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(run + ["--output-every", "1", "--save-every", f"{out}/series_deflate.nc"],
                   check=True, stdout=subprocess.DEVNULL,
                   env=dict(os.environ, HEAT2D_NETCDF_DEFLATE="1"))


def series(path, fmt="NETCDF4", step_dim=None, step_fill=None):
    """A series as heat2d writes one: u(time, y, x) not filled, one record a
    chunk, and step(time), or step on step_dim (name, length) instead; its
    _FillValue step_fill when given."""
    d = netCDF4.Dataset(path, "w", format=fmt)
    d.createDimension("time", None)
    d.createDimension("y", NY)
    d.createDimension("x", NX)
    options = {"chunksizes": (1, NY, NX), "fill_value": False} if fmt == "NETCDF4" else {}
    u = d.createVariable("u", "f8", ("time", "y", "x"), **options)
    step_type = "i8" if fmt in ("NETCDF4", "NETCDF3_64BIT_DATA") else "f8"
    if step_dim:
        d.createDimension(*step_dim)
    step = d.createVariable("step", step_type, (step_dim[0] if step_dim else "time",),
                            fill_value=step_fill)
    return d, u, step


def field_of(value):
    return np.full((NY, NX), value)


def valid_classic(out):
    d, u, step = series(f"{out}/series_cdf5.nc", "NETCDF3_64BIT_DATA")
    for r in range(3):
        u[r] = field_of(0.25 * (r + 1))
        step[r] = r + 1
    d.close()
    d = netCDF4.Dataset(f"{out}/field_classic.nc", "w", format="NETCDF3_64BIT_OFFSET")
    d.createDimension("y", NY)
    d.createDimension("x", NX)
    d.createVariable("u", "f8", ("y", "x"))[:] = field_of(0.5)
    d.close()


def crafted(out):
    d, u, step = series(f"{out}/long_step.nc", step_dim=("n", 600))
    for r in range(2):
        u[r] = field_of(0.5)
    step[:] = np.arange(1, 601)
    d.close()

    d, u, step = series(f"{out}/records_2p61.nc", "NETCDF3_64BIT_DATA")
    for r in range(3):
        u[r] = field_of(0.25)
        step[r] = r + 1
    d.close()
    with open(f"{out}/records_2p61.nc", "r+b") as f:
        f.seek(4)  # CDF5: 'CDF' 5, then the record count, 8 bytes big-endian
        f.write((2**61).to_bytes(8, "big"))

    d, u, step = series(f"{out}/step_2p27.nc")
    u[0] = field_of(0.5)
    step[0] = 1
    step[2**27] = 5
    d.close()

    d, u, step = series(f"{out}/torn.nc")
    u[0] = field_of(0.5)
    u[2] = field_of(0.5)
    step[0:3] = [1, 2, 3]
    d.close()

    d, u, step = series(f"{out}/torn_extent.nc")
    u[0] = field_of(0.5)
    step[0:2] = [1, 2]
    d.close()

    d, u, step = series(f"{out}/torn_classic.nc", "NETCDF3_64BIT_DATA")
    u[0] = field_of(0.5)
    u[2] = field_of(0.5)
    step[0:3] = [1, 2, 3]
    d.close()


def named_field():
    """The named inputs' field: (i + 10 j) / 1000 inside, 0 on the boundary."""
    j, i = np.mgrid[0:NY, 0:NX]
    packed = np.where((i == 0) | (j == 0) | (i == NX - 1) | (j == NY - 1), 0, i + 10 * j)
    return packed, packed * 0.001


def field_file(path, dims, var="u", dtype="f8", fmt="NETCDF4", **attrs):
    """A file of one 2-D variable over dims (names, in the file's order)."""
    d = netCDF4.Dataset(path, "w", format=fmt)
    sizes = {"x": NX, "y": NY, "a": NY, "b": NX}
    for name in dims:
        d.createDimension(name, sizes[name])
    fill = attrs.pop("_FillValue", None)
    v = d.createVariable(var, dtype, dims, fill_value=fill)
    v.set_auto_maskandscale(False)
    for key, value in attrs.items():
        v.setncattr(key, value)
    return d, v


def named(out):
    packed, field = named_field()
    d, u = field_file(f"{out}/field_yx.nc", ("y", "x"))
    u[:] = field
    d.close()
    d, u = field_file(f"{out}/field_xy.nc", ("x", "y"))
    u[:] = field.T
    d.close()
    d, u = field_file(f"{out}/packed.nc", ("y", "x"), dtype="i2", scale_factor=0.001)
    u[:] = packed
    d.close()
    d, h = field_file(f"{out}/named.nc", ("y", "x"), var="h")
    h[:] = field
    d.createDimension("time", None)
    hs = d.createVariable("hs", "f8", ("time", "y", "x"))
    step = d.createVariable("step", "i4", ("time",))
    hs[0], hs[1] = field, field * 2
    step[:] = [0, 5]
    d.close()
    d, u = field_file(f"{out}/fill.nc", ("y", "x"), dtype="f4", _FillValue=-999.0)
    values = field.astype(np.float32)
    values[2, 3] = -999.0
    u[:] = values
    d.close()
    d, u = field_file(f"{out}/missing.nc", ("y", "x"), missing_value=1e20)
    values = field.copy()
    values[1, 4] = 1e20
    u[:] = values
    d.close()
    d = netCDF4.Dataset(f"{out}/three_d.nc", "w")
    for name, size in (("z", 2), ("y", NY), ("x", NX)):
        d.createDimension(name, size)
    d.createVariable("u", "f8", ("z", "y", "x"))[:] = np.stack([field, field])
    d.close()
    d, u = field_file(f"{out}/misnamed.nc", ("a", "b"))
    u[:] = field
    d.close()
    d, u = field_file(f"{out}/text_u.nc", ("y", "x"), dtype="S1")
    u[:] = np.full((NY, NX), b"a")
    d.close()
    d, u, step = series(f"{out}/twice.nc")
    for r in range(3):
        u[r] = field
    step[:] = [0, 10, 10]
    d.close()


def cf_attributes(out):
    packed, field = named_field()
    classic = "NETCDF3_64BIT_OFFSET"
    for name, flag in (("unsigned", "true"), ("unsigned_bad", "yes")):
        d, u = field_file(f"{out}/{name}.nc", ("y", "x"), dtype="i2", fmt=classic,
                          _Unsigned=flag, scale_factor=0.001, add_offset=-40.0)
        u[:] = (packed + 40000 - 65536).astype("i2")
        d.close()
    d, u = field_file(f"{out}/valid_range.nc", ("y", "x"), fmt=classic,
                      valid_range=np.array([0.0, 0.04]))
    u[:] = field
    d.close()
    d, u = field_file(f"{out}/valid_min.nc", ("y", "x"), fmt=classic, valid_min=0.0)
    values = field.copy()
    values[3, 2] = -1.0
    u[:] = values
    d.close()
    d, u = field_file(f"{out}/valid_max.nc", ("y", "x"), fmt=classic, valid_max=0.045)
    u[:] = field
    d.close()
    d, u, step = series(f"{out}/step_fill.nc", step_fill=10)
    for r in range(3):
        u[r] = field * (r + 1)
    step[:] = [0, 10, 20]
    d.close()
    d, u, step = series(f"{out}/step_2p53.nc")
    for r in range(2):
        u[r] = field
    step[:] = [0, 2**53 + 2]
    d.close()


def mutants(heat2d, base, count, seed, out):
    """One changed byte each; kept when heat2d says the library crashed or
    hung on it."""
    data = open(base, "rb").read()
    rng = random.Random(seed)
    kept = 0
    for k in range(count):
        offset = rng.randrange(len(data))
        value = rng.choice([0, 0xFF, data[offset] ^ (1 << rng.randrange(8)), rng.randrange(256)])
        mutant = bytearray(data)
        mutant[offset] = value
        path = f"{out}/mutant.nc"
        with open(path, "wb") as f:
            f.write(mutant)
        done = subprocess.run([heat2d, "compare", f"{path}:1", f"{path}:1"], capture_output=True,
                              text=True, env=dict(os.environ, HEAT2D_NETCDF_TIMEOUT="2"))
        for word, kind in (("crashed", "crash"), ("no progress", "hang")):
            if word in done.stderr:
                os.rename(path, f"{out}/{kind}_at_{offset}_{value:02x}.nc")
                kept += 1
    if os.path.exists(f"{out}/mutant.nc"):
        os.unlink(f"{out}/mutant.nc")
    print(f"{kept} of {count} mutants crash or hang the library")


def main(argv):
    if len(argv) == 7 and argv[1] == "--mutants":
        mutants(argv[2], argv[3], int(argv[4]), int(argv[5]), argv[6])
        return 0
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    heat2d, out = argv[1], argv[2]
    os.makedirs(out, exist_ok=True)
    heat2d_files(heat2d, out)
    valid_classic(out)
    crafted(out)
    named(out)
    cf_attributes(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
