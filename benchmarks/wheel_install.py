"""Build ec2audit's wheel and install it into a fresh venv, as a user would; print size and times.

The fresh venv gets the wheel only (`pip install --no-deps`); its dependencies come from this environment's
site-packages through a `.pth` line, so the install needs no network and the wheel's own files are what runs
(a `.pth` line adds a folder to sys.path without running that folder's own `.pth` files, so the checkout's
editable install stays out). `tests/test_wheel.py` uses the same two steps.

    .venv/bin/python benchmarks/wheel_install.py
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def build_wheel(dest: Path) -> Path:
    """`pip wheel` of the checkout with the pinned hatchling of this environment (offline)."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(dest), str(REPO)], check=True, capture_output=True)
    [wheel] = dest.glob("ec2audit-*.whl")
    return wheel


def install_wheel(wheel: Path, venv: Path) -> Path:
    """A new venv holding `wheel`, its dependencies read from this environment; returns its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    (site / "shared-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                    str(wheel)], check=True, capture_output=True)
    return python


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        wheel = build_wheel(Path(tmp) / "dist")
        built = time.perf_counter() - start
        size = wheel.stat().st_size
        with zipfile.ZipFile(wheel) as archive:
            files = archive.infolist()
        data = sum(f.file_size for f in files if "/_data/" in f.filename)
        start = time.perf_counter()
        python = install_wheel(wheel, Path(tmp) / "venv")
        installed = time.perf_counter() - start
        start = time.perf_counter()
        subprocess.run([str(python), "-c", "import ec2audit.cli"], check=True)
        imported = time.perf_counter() - start
    print(f"wheel {wheel.name}: {size / 1e6:.2f} MB compressed, {len(files)} files, "
          f"{sum(f.file_size for f in files) / 1e6:.2f} MB unpacked ({data / 1e6:.2f} MB of it packaged data)")
    print(f"build (pip wheel, hatchling): {built:.1f} s; fresh venv + pip install --no-deps: {installed:.1f} s; "
          f"first `import ec2audit.cli` from the venv: {imported:.1f} s")


if __name__ == "__main__":
    main()
