#!/usr/bin/env python3
"""Writes the server's OCI image archive for release/image.sh: one layer (Debian's root file system, the jlinked
Java runtime, the jar, SQLite's native library, the store user and its volume) and the image's configuration.

Everything that could differ between two builds of one commit is fixed here: each file's time is the given epoch,
owners are numeric, entries are sorted, the gzip header holds no time or name, and the JSON is written with sorted
keys. So the same inputs give the same bytes, hence the same image id (the configuration's digest)."""
import argparse
import gzip
import hashlib
import io
import json
import os
import tarfile
import time

USER_ID = 10001
DATA = "/var/lib/store"
JAVA = "/opt/java"
JAR = "/usr/share/store/store-server.jar"
SQLITE_DIR = "/usr/lib/store"
HTTP_PORT, MANAGEMENT_PORT = 8080, 8081
# The JVM sizes its heap from the container's memory limit (container support is on by default): three quarters of
# it, leaving the rest for metaspace, threads, direct buffers and SQLite. An OutOfMemoryError ends the process, for
# the orchestrator to restart, rather than leave it half-working. No perf-data file in /tmp: nothing needs /tmp.
# sqlite-jdbc loads the library shipped in the image rather than writing a copy into a temporary directory.
ENTRYPOINT = [JAVA + "/bin/java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "-XX:-UsePerfData",
              "-Dorg.sqlite.lib.path=" + SQLITE_DIR, "-Dorg.sqlite.lib.name=libsqlitejdbc.so", "-jar", JAR]
# What the root file system needs no part of at run time: apt's and dpkg's state (nothing installs here), the
# host's resolver and name (the runtime provides them), device nodes (likewise), iconv's modules, linters' data.
DROPPED = ("./etc/apt", "./etc/dpkg", "./etc/resolv.conf", "./etc/hostname", "./etc/fstab", "./var/lib/apt",
           "./var/cache/apt", "./var/log/apt", "./var/lib/dpkg", "./usr/share/lintian", "./usr/share/gdb",
           "./usr/lib/x86_64-linux-gnu/gconv", "./usr/lib/aarch64-linux-gnu/gconv")


def dropped(name):
    return name.startswith("./dev/") or any(name == d or name.startswith(d + "/") for d in DROPPED)


def entry(name, kind=tarfile.REGTYPE, mode=0o644, uid=0, data=b"", linkname=""):
    info = tarfile.TarInfo(name)
    info.type, info.mode, info.uid, info.gid, info.size, info.linkname = kind, mode, uid, uid, len(data), linkname
    return info, data


def layer_entries(args):
    entries = {}
    with tarfile.open(args.rootfs) as rootfs:
        for member in rootfs.getmembers():
            if dropped(member.name.rstrip("/") if member.isdir() else member.name):
                continue
            name = member.name.rstrip("/")
            data = rootfs.extractfile(member).read() if member.isreg() else b""
            info = tarfile.TarInfo(name)
            info.type, info.mode, info.uid, info.gid = member.type, member.mode, member.uid, member.gid
            info.linkname, info.size = member.linkname, len(data)
            entries[name] = (info, data)
    passwd = f"root:x:0:0:root:/root:/usr/sbin/nologin\nstore:x:{USER_ID}:{USER_ID}:Store:{DATA}:/usr/sbin/nologin\n"
    group = f"root:x:0:\nstore:x:{USER_ID}:\n"
    added = [entry("./etc/passwd", data=passwd.encode()), entry("./etc/group", data=group.encode()),
             entry("./opt", tarfile.DIRTYPE, 0o755),
             entry("./usr/share/store", tarfile.DIRTYPE, 0o755),
             entry("." + JAR, data=open(args.jar, "rb").read()),
             entry("." + SQLITE_DIR, tarfile.DIRTYPE, 0o755),
             entry("." + SQLITE_DIR + "/libsqlitejdbc.so", mode=0o755, data=open(args.sqlite, "rb").read()),
             entry("./var/lib/store", tarfile.DIRTYPE, 0o750, uid=USER_ID),
             entry("./tmp", tarfile.DIRTYPE, 0o1777)]
    for directory, subdirectories, files in os.walk(args.java):
        subdirectories.sort()
        for name in [directory] + [os.path.join(directory, f) for f in files]:
            path = "." + JAVA + name[len(args.java):]
            if os.path.islink(name):
                added.append(entry(path, tarfile.SYMTYPE, 0o777, linkname=os.readlink(name)))
            elif os.path.isdir(name):
                added.append(entry(path, tarfile.DIRTYPE, 0o755))
            else:
                executable = os.stat(name).st_mode & 0o100
                added.append(entry(path, mode=0o755 if executable else 0o644, data=open(name, "rb").read()))
    for info, data in added:
        entries[info.name] = (info, data)
    return [entries[name] for name in sorted(entries)]


def write_tar(entries, epoch):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for info, data in entries:
            info.mtime, info.uname, info.gname = epoch, "", ""
            tar.addfile(info, io.BytesIO(data) if info.isreg() else None)
    return buffer.getvalue()


def gzipped(data):
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", fileobj=buffer, mode="wb", mtime=0, compresslevel=6) as out:
        out.write(data)
    return buffer.getvalue()


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def digest(data):
    return "sha256:" + hashlib.sha256(data).hexdigest()


def main():
    parser = argparse.ArgumentParser()
    for option in ("out", "rootfs", "java", "jar", "sqlite", "version", "arch"):
        parser.add_argument("--" + option, required=True)
    parser.add_argument("--epoch", type=int, required=True)
    args = parser.parse_args()
    layer = write_tar(layer_entries(args), args.epoch)
    compressed = gzipped(layer)
    created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(args.epoch))
    config = canonical({
        "created": created, "architecture": args.arch, "os": "linux",
        "config": {
            "User": f"{USER_ID}:{USER_ID}",
            "Env": ["PATH=" + JAVA + "/bin:/usr/bin:/bin", "LANG=C.UTF-8",
                    # Inside the container, every interface: the container's network is the boundary.
                    "STORE_HOST=0.0.0.0", "STORE_MANAGEMENT_HOST=0.0.0.0",
                    f"STORE_MANAGEMENT_PORT={MANAGEMENT_PORT}"],
            "Entrypoint": ENTRYPOINT, "Cmd": ["serve"], "WorkingDir": DATA, "Volumes": {DATA: {}},
            "ExposedPorts": {f"{HTTP_PORT}/tcp": {}, f"{MANAGEMENT_PORT}/tcp": {}},
            "StopSignal": "SIGTERM",
            "Labels": {"org.opencontainers.image.title": "store-server",
                       "org.opencontainers.image.version": args.version,
                       "org.opencontainers.image.licenses": "Apache-2.0",
                       "org.opencontainers.image.created": created},
        },
        "rootfs": {"type": "layers", "diff_ids": [digest(layer)]},
        "history": [{"created": created, "created_by": "release/image.sh"}],
    })
    manifest = canonical({
        "schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": digest(config),
                   "size": len(config)},
        "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": digest(compressed),
                    "size": len(compressed)}],
    })
    index = canonical({
        "schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json",
        "manifests": [{"mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": digest(manifest),
                       "size": len(manifest),
                       "annotations": {"org.opencontainers.image.ref.name": "store-server:" + args.version}}],
    })
    blobs = [(b, "./blobs/sha256/" + digest(b)[len("sha256:"):]) for b in (compressed, config, manifest)]
    archive = [entry("./blobs", tarfile.DIRTYPE, 0o755), entry("./blobs/sha256", tarfile.DIRTYPE, 0o755)]
    archive += [entry(name, data=blob) for blob, name in sorted(blobs, key=lambda b: b[1])]
    archive += [entry("./index.json", data=index), entry("./oci-layout", data=canonical({"imageLayoutVersion": "1.0.0"}))]
    with open(args.out, "wb") as out:
        out.write(write_tar(archive, args.epoch))
    print("image id " + digest(config))


if __name__ == "__main__":
    main()
