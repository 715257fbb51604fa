"""A model behind an OpenAI-compatible HTTP endpoint, prompted in context as a text-to-SQL victim.

Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
Language Model: An Empirical Study on Codex" (https://arxiv.org/abs/2301.12868), attack Codex
through the OpenAI API, prompted with the "Create Table + Select 3" prompt of Rajkumar, Li and
Bahdanau (2022) (https://arxiv.org/abs/2204.00498). :class:`OpenAIParser` does the same with any
server speaking that API (OpenAI itself, llama.cpp's ``llama_cpp.server``, vLLM, ...), through
the official ``openai`` package.
"""

from __future__ import annotations

import email.utils
import ipaddress
import math
import os
import random
import threading
import time
import zlib
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import urlsplit

from textattack_semparse.arguments import check_count
from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError, VictimError
from textattack_semparse.victims.llm.prompted_parser import OTHER_MAX_TOKENS, SQL_MAX_TOKENS, SQL_STOP, PromptedParser

if TYPE_CHECKING:
    from textattack_semparse.datasets.benchmark import Benchmark

STYLES = ("completion", "chat")
"""How a prompt is sent: ``completion`` (``/completions``, the prompt continued as text, as with
Codex) or ``chat`` (``/chat/completions``, the prompt as one user message)."""

COMPLETION_STOP = ("\n\n", "--", ";")
"""Default stop sequences of the ``completion`` style on a prompt that is not text-to-SQL (a
Table QA or plain-completion prompt; see :class:`OpenAIParser`)."""

TEMPERATURE = 0.0
"""Greedy decoding, as Zhuo et al. (2023) query Codex."""

RETRY_STATUSES = frozenset({408, 429})
"""4xx statuses that are retried (with every 5xx); any other 4xx is not."""

VICTIM_WIDE_STATUSES = frozenset({401, 403, 404})
"""Rejections that no other input would escape (a bad key, no access, no such model or route):
they stop the run with :class:`~textattack_semparse.errors.VictimError`."""

PLACEHOLDER_API_KEY = "sk-no-key-required"
"""The key sent to a loopback server when the key variable is unset (such servers ignore it)."""


class RequestCounts(NamedTuple):
    """HTTP requests an :class:`OpenAIParser` sent (``requests``, retries included), how many
    of them were retries (``retries``), and the completions received (``completions``)."""

    requests: int
    retries: int
    completions: int


class EndpointRejected(RuntimeError):
    """The endpoint refused one request with a 4xx status that is not retried; the input fails
    (:class:`~textattack_semparse.victims.semantic_parser.SemanticParser`'s failure policy)."""


class _Abandoned(Exception):
    """A request given up because another one ended the batch (never leaves the module)."""


class OpenAIParser(PromptedParser):
    """A model behind an OpenAI-compatible endpoint that continues a k-shot "Create Table +
    Select 3" prompt with SQL.

    Zhuo et al. (2023), https://arxiv.org/abs/2301.12868, who query Codex through this API;
    the demonstrations, prompt, response cache and SQL extraction are
    :class:`~textattack_semparse.victims.llm.prompted_parser.PromptedParser`'s.

    Decoding is greedy (``temperature=0``), at most ``max_tokens`` tokens (``None``: Zhuo et
    al.'s 200 on a text-to-SQL prompt, 128 on any other). With
    ``style="completion"`` the prompt goes to ``/completions`` and the model continues its
    final ``SELECT``, as Codex did. With ``style="chat"`` it goes to ``/chat/completions`` as one
    user message; the reply may wrap the query in prose and a Markdown fence, which
    :func:`~textattack_semparse.sql.completion_sql.extract_sql` removes.

    Stop sequences (``stop=None`` picks the style's default). ``completion`` on a text-to-SQL
    prompt: Zhuo et al.'s four stop tokens,
    :data:`~textattack_semparse.victims.llm.prompted_parser.SQL_STOP`, ``("--", "\\n\\n", ";",
    "#")``; on any other prompt :data:`COMPLETION_STOP`, ``("\\n\\n", "--", ";")``. In the prompt
    every demonstration's query is followed by a blank line and the next ``-- question``, so a
    model imitating it has finished its query at ``\\n\\n`` or ``--``; ``;`` ends a statement
    (``extract_sql`` keeps only the first statement anyway) and ``#`` starts a comment. Without
    them a model writes on until ``max_tokens``, inventing further questions, which costs tokens
    and time but changes no SQL. None of them can cut the query ``extract_sql`` would keep,
    except for a ``--``, ``;`` or ``#`` inside a string literal, or a blank line inside the query
    (SQL written by hand, not by a model imitating the prompt). ``chat``: none, since a chat reply usually opens with prose and a blank line
    before its fenced query, where ``\\n\\n`` would stop it before the SQL. The stop sequences
    are part of the cache key.

    Threat and failure model: the endpoint is remote, shared and unreliable, and may be
    metered. Up to ``concurrency`` requests are in flight at once (a bounded thread pool), each
    limited to ``timeout`` seconds. A request that times out, cannot connect (server down or
    killed mid-answer), or gets 408, 429 or 5xx is retried up to ``max_retries`` times, after
    an exponential backoff of ``backoff_base * 2**attempt`` seconds (at most ``backoff_max``)
    with a deterministic jitter (a factor in [0.5, 1) drawn from the prompt and attempt), or
    after the server's ``Retry-After`` (``retry-after-ms``) when a 429 or 503 gives one, capped
    at ``retry_after_cap``. The ``openai`` client's own retries are off, so these are the only
    ones. A request still failing after its retries stops the run with
    :class:`~textattack_semparse.errors.VictimError` (the endpoint is unusable, not the input).
    Another 4xx is not retried: 401, 403 and 404 (bad key, no access, unknown model or route)
    raise ``VictimError`` at once; any other (400, 413, 422, ...; e.g. a prompt longer than the
    context) raises :class:`EndpointRejected`, so only that input fails. ``max_requests``
    bounds the HTTP requests this victim ever sends, retries included; when it is spent the run
    stops with ``VictimError`` (``0``: answer from the cache only). Completions are cached the
    moment they arrive; when a request ends the batch, the requests already in flight are
    awaited and cached and none is started, so a re-run asks only for what is missing.
    :meth:`request_counts` gives the requests, retries and completions.

    The API key is read from the environment variable ``api_key_env`` when the client is built;
    it is never stored on the victim, so pickles and logs do not hold it. When the variable is
    unset, a loopback ``base_url`` gets :data:`PLACEHOLDER_API_KEY`; any other raises
    ``VictimError``. The client is built on first use and dropped when the victim is pickled.

    Args:
        model (str): The model name the endpoint serves.
        base_url (str): The endpoint's base URL, e.g. ``http://127.0.0.1:8080/v1``.
        style (str, default "completion"): ``completion`` or ``chat`` (:data:`STYLES`).
        api_key_env (str, default "OPENAI_API_KEY"): Environment variable holding the key.
        max_tokens (int | None, default None): Most tokens per completion; ``None`` is 200 on a
            text-to-SQL prompt (Zhuo et al.), 128 on any other.
        stop (Sequence[str] | None, default None): Stop sequences (at most 4 for OpenAI);
            ``None`` is the style's default, ``()`` none.
        concurrency (int, default 4): Most requests in flight at once.
        max_retries (int, default 5): Retries of one request after a timeout, connection error,
            408, 429 or 5xx.
        timeout (float, default 60.0): Seconds one request may take.
        max_requests (int | None, default None): Budget of HTTP requests (retries included)
            over this victim's life; ``None`` is unlimited.
        backoff_base (float, default 1.0): First backoff, in seconds.
        backoff_max (float, default 30.0): Longest backoff, in seconds.
        retry_after_cap (float, default 60.0): Longest ``Retry-After`` honoured, in seconds.
        extra_body (dict | None, default None): More JSON fields for each request, for a
            server's own sampling parameters (e.g. llama.cpp's ``{"repeat_penalty": 1.0}``);
            part of the cache key.
        repeat_penalty (float | None, default None): llama.cpp's ``repeat_penalty``, sent in
            ``extra_body`` when given. llama-cpp-python's server applies 1.1 unless told
            otherwise, even at temperature 0; ``1.0`` makes its decoding plain greedy, as
            :class:`~textattack_semparse.victims.llm.causal_lm_parser.CausalLMParser`'s is.
        Other arguments (``benchmark``, ``shots``, ``selection``, ``seed``, ``split_type``,
        ``adversarial``, ``template``, ``cache_path``, ``selector_options``,
        ``ppl_model``, ``max_failure_rate``): as :class:`PromptedParser`; ``ppl-asc``/``ppl-desc``
        score with GPT-2 or another causal LM named by ``ppl_model`` (not ``"victim"``: the
        endpoint gives no perplexities).

    Raises:
        VictimError: No key for a non-loopback ``base_url``.
        ValueError, TypeError: An argument has the wrong type or is out of range.
    """

    VICTIM_NAME_OPTIONS = {
        "style": str,
        "max_tokens": int,
        "concurrency": int,
        "max_retries": int,
        "timeout": float,
        "max_requests": int,
        "repeat_penalty": float,
    }

    @classmethod
    def victim_name_problem(cls, target: str) -> str | None:
        model, at, url = target.partition("@")
        if model and at and url.startswith(("http://", "https://")):
            return None
        return (
            "write openai:MODEL@URL, the model's name at an OpenAI-compatible base URL, e.g. "
            "openai:gpt-3.5-turbo-instruct@https://api.openai.com/v1 or openai:smollm2@http://127.0.0.1:8080/v1."
        )

    @classmethod
    def from_victim_name(cls, target: str, *, benchmark: Benchmark, split_type: str, **options: Any) -> OpenAIParser:
        """``openai:MODEL@URL``: the model name, then the base URL."""
        model, _, url = target.partition("@")
        return cls(model, base_url=url, benchmark=benchmark, split_type=split_type, **options)

    def __init__(
        self,
        model: str,
        *,
        base_url: str,
        style: str = "completion",
        api_key_env: str = "OPENAI_API_KEY",
        max_tokens: int | None = None,
        stop: Sequence[str] | None = None,
        concurrency: int = 4,
        max_retries: int = 5,
        timeout: float = 60.0,
        max_requests: int | None = None,
        backoff_base: float = 1.0,
        backoff_max: float = 30.0,
        retry_after_cap: float = 60.0,
        extra_body: dict[str, Any] | None = None,
        repeat_penalty: float | None = None,
        **kwargs: Any,
    ) -> None:
        if not isinstance(model, str) or not model.strip():
            raise ConfigurationTypeError(f"model must be a non-empty model name, got {model!r}.")
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise ConfigurationError(f"base_url must be an http(s) URL such as http://127.0.0.1:8080/v1, got {base_url!r}.")
        if style not in STYLES:
            raise ConfigurationError(f"style must be one of {', '.join(STYLES)}, got {style!r}.")
        if stop is not None and (isinstance(stop, str) or not all(isinstance(s, str) and s for s in stop)):
            raise ConfigurationTypeError(f"stop must be a sequence of non-empty strings (or None), got {stop!r}.")
        if max_tokens is not None:
            check_count("max_tokens", max_tokens, minimum=1)
        check_count("concurrency", concurrency, minimum=1)
        check_count("max_retries", max_retries, minimum=0)
        if max_requests is not None:
            check_count("max_requests", max_requests, minimum=0)
        for name, value in (
            ("timeout", timeout),
            ("backoff_base", backoff_base),
            ("backoff_max", backoff_max),
            ("retry_after_cap", retry_after_cap),
        ):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise ConfigurationError(f"{name} must be a finite number of seconds >= 0, got {value!r}.")
        if timeout <= 0:
            raise ConfigurationError(f"timeout must be > 0 seconds, got {timeout!r}.")
        self.model_name = model
        self.base_url = base_url.rstrip("/")
        self.style = style
        self.api_key_env = api_key_env
        self.concurrency = concurrency
        self.max_retries = max_retries
        self.timeout = float(timeout)
        self.max_requests = max_requests
        self.backoff_base = float(backoff_base)
        self.backoff_max = float(backoff_max)
        self.retry_after_cap = float(retry_after_cap)
        self.extra_body = dict(extra_body) if extra_body else {}
        if repeat_penalty is not None:
            self.extra_body["repeat_penalty"] = float(repeat_penalty)
        self._requests = self._retries = self._completions = 0
        self._lock = threading.Lock()
        self._api_key()  # fails early when there is no key for a remote endpoint
        super().__init__(**kwargs)
        self.max_tokens = (SQL_MAX_TOKENS if self.writes_sql else OTHER_MAX_TOKENS) if max_tokens is None else max_tokens
        default_stop = () if style != "completion" else SQL_STOP if self.writes_sql else COMPLETION_STOP
        self.stop = default_stop if stop is None else tuple(stop)

    def extra_repr_keys(self) -> list[str]:
        return super().extra_repr_keys() + [
            "model_name",
            "base_url",
            "style",
            "max_tokens",
            "concurrency",
            "max_retries",
            "timeout",
            "max_requests",
        ]

    @property
    def model_id(self) -> str:
        """The model as the response cache knows it: ``openai:MODEL@BASE_URL``."""
        return f"openai:{self.model_name}@{self.base_url}"

    @property
    def decoding_parameters(self) -> dict[str, Any]:
        parameters = {
            "style": self.style,
            "temperature": TEMPERATURE,
            "max_tokens": self.max_tokens,
            "stop": list(self.stop),
        }
        if self.extra_body:
            parameters["extra_body"] = self.extra_body
        return parameters

    def request_counts(self) -> RequestCounts:
        """HTTP requests sent (retries included), retries, and completions received so far."""
        with self._lock:
            return RequestCounts(self._requests, self._retries, self._completions)

    @property
    def client(self) -> Any:
        """The ``openai.OpenAI`` client (built on first use, its own retries off)."""
        if "_client" not in self.__dict__:
            openai = _import_openai()
            self.__dict__["_client"] = openai.OpenAI(
                base_url=self.base_url, api_key=self._api_key(), max_retries=0, timeout=self.timeout
            )
        return self.__dict__["_client"]

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state.pop("_client", None)
        state.pop("_lock", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def _api_key(self) -> str:
        key = os.environ.get(self.api_key_env)
        if key:
            return key
        if is_loopback_url(self.base_url):
            return PLACEHOLDER_API_KEY
        raise VictimError(
            f"OpenAIParser {self.model_id!r} needs an API key: set the environment variable {self.api_key_env} "
            "(or pass api_key_env= naming another one). Only a loopback server (127.0.0.1, localhost) is "
            "queried without a key."
        )

    def _generate_completions(self, prompts: list[str]) -> Iterator[tuple[str, str]]:
        client = self.client
        openai = _import_openai()
        stopping = threading.Event()
        pool = ThreadPoolExecutor(max_workers=min(self.concurrency, len(prompts)), thread_name_prefix="openai-victim")
        futures: dict[Future[str], str] = {
            pool.submit(self._complete_with_retries, client, openai, prompt, stopping): prompt for prompt in prompts
        }
        first_error: BaseException | None = None
        try:
            pending = set(futures)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    if future.cancelled():
                        continue
                    error = future.exception()
                    if error is None:
                        yield futures[future], future.result()
                    elif not isinstance(error, _Abandoned) and first_error is None:
                        # Start nothing more; the requests in flight still finish and are cached.
                        first_error = error
                        stopping.set()
                        for other in pending:
                            other.cancel()
        finally:
            stopping.set()
            pool.shutdown(wait=True, cancel_futures=True)
        if first_error is not None:
            raise first_error

    def _complete_with_retries(self, client: Any, openai: Any, prompt: str, stopping: threading.Event) -> str:
        for attempt in range(self.max_retries + 1):
            if stopping.is_set():
                raise _Abandoned()
            self._reserve_request(retry=attempt > 0)
            try:
                completion = self._request(client, prompt)
            except openai.APIStatusError as error:
                status = error.status_code
                if status not in RETRY_STATUSES and status < 500:
                    raise self._rejection(error) from error
                failure: Exception = error
                delay = self._retry_after(error) if status in (429, 503) else None
            except openai.APIConnectionError as error:  # includes APITimeoutError
                failure, delay = error, None
            else:
                with self._lock:
                    self._completions += 1
                return completion
            if attempt == self.max_retries:
                break
            if delay is None:
                delay = self._backoff(prompt, attempt)
            if stopping.wait(delay):
                raise _Abandoned()
        raise VictimError(
            f"OpenAIParser {self.model_id!r}: a request still failed after {self.max_retries} retries "
            f"({_describe(failure)}); the endpoint is unreachable or overloaded. The completions received so far "
            f"are cached in {str(self.cache_path)!r}; re-run to ask only for the missing ones, or raise max_retries/"
            "timeout."
        ) from failure

    def _reserve_request(self, *, retry: bool) -> None:
        with self._lock:
            if self.max_requests is not None and self._requests >= self.max_requests:
                raise VictimError(
                    f"OpenAIParser {self.model_id!r} has spent its request budget: max_requests={self.max_requests} "
                    f"HTTP requests sent ({self._retries} of them retries). The {self._completions} completions "
                    f"received are cached in {str(self.cache_path)!r}; raise max_requests (or use a new victim) "
                    "to ask for the rest."
                )
            self._requests += 1
            self._retries += int(retry)

    def _request(self, client: Any, prompt: str) -> str:
        options: dict[str, Any] = {"model": self.model_name, "max_tokens": self.max_tokens, "temperature": TEMPERATURE}
        if self.stop:
            options["stop"] = list(self.stop)
        if self.extra_body:
            options["extra_body"] = self.extra_body
        if self.style == "chat":
            response = client.chat.completions.create(messages=[{"role": "user", "content": prompt}], **options)
            choices = response.choices or []
            return (choices[0].message.content or "") if choices else self._no_choice()
        response = client.completions.create(prompt=prompt, **options)
        choices = response.choices or []
        return (choices[0].text or "") if choices else self._no_choice()

    def _no_choice(self) -> str:
        raise EndpointRejected(f"OpenAIParser {self.model_id!r}: the endpoint answered without any choice.")

    def _rejection(self, error: Any) -> Exception:
        route = "/chat/completions" if self.style == "chat" else "/completions"
        message = (
            f"OpenAIParser {self.model_id!r}: POST {self.base_url}{route} was rejected with HTTP {error.status_code} "
            f"(not retried): {_error_body(error)}"
        )
        if error.status_code in VICTIM_WIDE_STATUSES:
            hint = {
                401: f" Check the API key in {self.api_key_env}.",
                403: f" The key in {self.api_key_env} has no access to this model.",
                404: f" Check the model name {self.model_name!r}, the base URL, and that the server has {route} "
                "(style='chat' needs /chat/completions, style='completion' /completions).",
            }[error.status_code]
            return VictimError(message + hint)
        return EndpointRejected(message)

    def _backoff(self, prompt: str, attempt: int) -> float:
        """``backoff_base * 2**attempt`` (at most ``backoff_max``) times a jitter in [0.5, 1),
        drawn from the prompt and the attempt (so concurrent requests spread out, reproducibly)."""
        jitter = random.Random(zlib.crc32(prompt.encode("utf-8")) * 64 + attempt).random()
        return min(self.backoff_max, self.backoff_base * 2**attempt) * (0.5 + 0.5 * jitter)

    def _retry_after(self, error: Any) -> float | None:
        """The server's ``retry-after-ms``/``Retry-After`` in seconds, capped; None when absent."""
        headers = getattr(getattr(error, "response", None), "headers", None) or {}
        seconds = retry_after_seconds(headers.get("retry-after-ms"), headers.get("retry-after"))
        return None if seconds is None else min(seconds, self.retry_after_cap)


def retry_after_seconds(
    retry_after_ms: str | None, retry_after: str | None, *, now: float | None = None
) -> float | None:
    """Seconds to wait from a ``retry-after-ms`` or ``Retry-After`` header (seconds or an HTTP
    date); ``None`` when neither is given or valid.

    Example:
        >>> retry_after_seconds(None, "2"), retry_after_seconds("1500", None), retry_after_seconds(None, "soon")
        (2.0, 1.5, None)
        >>> retry_after_seconds(None, "Thu, 01 Jan 1970 00:00:10 GMT", now=4.0)
        6.0
    """
    for value, scale in ((retry_after_ms, 1000.0), (retry_after, 1.0)):
        if not value:
            continue
        try:
            seconds = float(value) / scale
        except ValueError:
            if scale != 1.0:
                continue
            try:
                date = email.utils.parsedate_to_datetime(value)
            except (TypeError, ValueError):
                continue
            seconds = date.timestamp() - (time.time() if now is None else now)
        if math.isfinite(seconds):
            return max(0.0, seconds)
    return None


def is_loopback_url(url: str) -> bool:
    """Whether ``url``'s host is this machine (``localhost``, 127.0.0.0/8, ``::1``).

    Example:
        >>> is_loopback_url("http://127.0.0.1:8080/v1"), is_loopback_url("https://api.openai.com/v1")
        (True, False)
    """
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _import_openai() -> Any:
    try:
        import openai
    except ImportError as error:
        raise VictimError(
            "OpenAIParser needs the official OpenAI client: pip install openai (>= 1.0)."
        ) from error
    return openai


def _describe(error: BaseException) -> str:
    status = getattr(error, "status_code", None)
    return f"HTTP {status}: {_error_body(error)}" if status is not None else f"{type(error).__name__}: {error}"


def _error_body(error: Any) -> str:
    body = getattr(error, "body", None)
    text = str(body if body is not None else getattr(error, "message", error))
    return text if len(text) <= 300 else text[:297] + "..."
