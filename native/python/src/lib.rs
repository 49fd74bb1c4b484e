//! `acp_terminal_native`: the Rust transcript and strict base64 of the generated crate
//! (`generated/rust`) behind the Python API of `acp_terminal` (docs/TRANSCRIPT.md). The pure
//! Python package stays complete; when this module is installed (`pip install
//! acp-terminal[native]`), `acp_terminal.Transcript` is this `Transcript` and strict base64
//! decoding runs here. The conformance vectors run against both paths.

use acp_terminal::transcript::Transcript as Inner;
use acp_terminal::wire;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

/// What the Python side checks before it uses this module: bumped when the API changes.
const API: u32 = 1;

/// Pushes of at least this many bytes run without the GIL.
const RELEASE_GIL: usize = 1 << 16;

/// A limit as the pure-Python `Transcript` takes it: a whole number (not a bool), 0 or more;
/// otherwise the same `ValueError`.
fn limit(name: &str, value: &Bound<'_, PyAny>) -> PyResult<usize> {
    let whole = value.is_instance_of::<pyo3::types::PyInt>() && !value.is_instance_of::<pyo3::types::PyBool>();
    let n: Option<i128> = if whole { value.extract::<i128>().ok() } else { None };
    match n {
        Some(n) if n >= 0 => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        // Past i128: still a whole number, and far past any text.
        None if whole && value.gt(0)? => Ok(usize::MAX),
        _ => Err(PyValueError::new_err(format!("Transcript: {name} must be a whole number, 0 or more (got {})", value.repr()?))),
    }
}

/// The incremental safe transcript renderer of docs/TRANSCRIPT.md (the Rust one).
///
/// The same API as the pure-Python ``acp_terminal.Transcript``: ``push(data)``, ``text``,
/// ``finished_length``, ``finished_since(start)``, ``current_line``, ``reset()``, and the
/// counters ``wrapped_lines``, ``dropped_lines``, ``dropped_chars``, ``work``.
#[pyclass(module = "acp_terminal_native")]
struct Transcript {
    inner: Inner,
    /// The text as last read, until the next push or reset.
    cache: Option<Py<PyString>>,
}

#[pymethods]
impl Transcript {
    #[new]
    #[pyo3(signature = (max_line_length = None, max_text_length = None))]
    fn new(max_line_length: Option<&Bound<'_, PyAny>>, max_text_length: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let line = max_line_length.map(|v| limit("max_line_length", v)).transpose()?.unwrap_or(acp_terminal::transcript::MAX_LINE_LENGTH);
        let text = max_text_length.map(|v| limit("max_text_length", v)).transpose()?.unwrap_or(acp_terminal::transcript::MAX_TEXT_LENGTH);
        Ok(Self { inner: Inner::with_limits(line, text), cache: None })
    }

    /// Continues the transcript with the next chunk of terminal bytes (bytes, bytearray or
    /// any object with the buffer protocol).
    fn push(&mut self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        self.cache = None;
        if let Ok(b) = data.downcast::<PyBytes>() {
            let bytes = b.as_bytes();
            if bytes.len() >= RELEASE_GIL {
                let inner = &mut self.inner;
                py.detach(|| inner.push(bytes));
            } else {
                self.inner.push(bytes);
            }
            return Ok(());
        }
        if let Ok(b) = data.downcast::<PyByteArray>() {
            // A bytearray may change while it is read: a copy, with the GIL held.
            let bytes = b.to_vec();
            self.inner.push(&bytes);
            return Ok(());
        }
        match pyo3::buffer::PyBuffer::<u8>::get(data) {
            Ok(buf) => {
                let bytes = buf.to_vec(py)?;
                self.inner.push(&bytes);
                Ok(())
            }
            Err(_) => Err(PyTypeError::new_err(format!("Transcript.push takes bytes, not {}", data.get_type().name()?))),
        }
    }

    /// The transcript so far: every finished line followed by "\n", then the current line,
    /// trailing spaces removed. Reading it again before the next push returns the same string.
    #[getter]
    fn text(&mut self, py: Python<'_>) -> Py<PyString> {
        if let Some(s) = &self.cache {
            return s.clone_ref(py);
        }
        let s: Py<PyString> = PyString::new(py, &self.inner.text()).unbind();
        self.cache = Some(s.clone_ref(py));
        s
    }

    /// Where the finished lines end so far: a position in UTF-8 bytes of every line finished
    /// since the start or the last ``reset()`` (left-out lines included).
    #[getter]
    fn finished_length(&self) -> u64 {
        self.inner.finished_len()
    }

    /// The lines finished since position ``start`` (an earlier ``finished_length``).
    fn finished_since(&self, start: &Bound<'_, PyAny>) -> PyResult<String> {
        let start: u64 = if start.lt(0)? { 0 } else { start.extract::<u64>().unwrap_or(u64::MAX) };
        let (a, b) = self.inner.finished_since(start);
        Ok(format!("{a}{b}"))
    }

    /// The current line, trailing spaces removed (the end of ``text``).
    #[getter]
    fn current_line(&self) -> String {
        self.inner.current_line()
    }

    /// Forgets everything (text, current line, pending sequence or character).
    fn reset(&mut self) {
        self.cache = None;
        self.inner.reset();
    }

    /// Lines the line length limit broke.
    #[getter]
    fn wrapped_lines(&self) -> u64 {
        self.inner.wrapped_lines()
    }

    /// Finished lines left out from the start of the text by the text length limit.
    #[getter]
    fn dropped_lines(&self) -> u64 {
        self.inner.dropped_lines()
    }

    /// Code points (line ends included) left out from the start of the text.
    #[getter]
    fn dropped_chars(&self) -> u64 {
        self.inner.dropped_chars()
    }

    /// Bytes and cells looked at, written or moved so far by ``push`` (the work counter the
    /// tests read to check, without a clock, that the work grows linearly with the input).
    #[getter]
    fn work(&self) -> u64 {
        self.inner.work()
    }
}

/// Decodes strict canonical base64 (standard alphabet, padding required and only as needed,
/// no whitespace, zero unused bits); a `ValueError` says what is wrong.
#[pyfunction]
fn decode_base64<'py>(py: Python<'py>, text: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyBytes>> {
    let text = text.to_str()?;
    match wire::decode_base64(text) {
        Ok(bytes) => Ok(PyBytes::new(py, &bytes)),
        Err(e) => Err(PyValueError::new_err(e)),
    }
}

/// Encodes bytes as canonical padded standard base64.
#[pyfunction]
fn encode_base64(data: &[u8]) -> String {
    wire::encode_base64(data)
}

#[pymodule]
fn acp_terminal_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("API", API)?;
    m.add_class::<Transcript>()?;
    m.add_function(wrap_pyfunction!(decode_base64, m)?)?;
    m.add_function(wrap_pyfunction!(encode_base64, m)?)?;
    Ok(())
}
