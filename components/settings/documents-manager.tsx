"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useRef, useState, useTransition } from "react";
import { deleteDocumentAction } from "@/app/(app)/settings/profile/actions";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { Alert, Card } from "@/components/ui/card";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { useAppFormat } from "@/components/i18n/use-app-format";
import { reportSessionEnded, requestJson } from "@/lib/client/api";
import type { DocumentOutput } from "@/lib/profile/schemas";

type Upload = { filename: string; stage: "reading" | "uploading" | "processing"; percent: number };

function readAsDataUrl(file: File, onProgress: (percent: number) => void): Promise<string | null> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    reader.onload = () => resolve(String(reader.result));
    // A file the browser cannot read (removed, no permission) resolves to null.
    reader.onerror = () => resolve(null);
    reader.readAsDataURL(file);
  });
}

type UploadResult = { ok: true; document: DocumentOutput } | { ok: false; status: number; code?: string };

/** POSTs with XMLHttpRequest, the one browser API that reports upload progress; the sign-in cookie authenticates it. */
function postDocument(body: string, onProgress: (percent: number) => void): Promise<UploadResult> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/v1/config/documents");
    xhr.setRequestHeader("Content-Type", "application/json");
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      let parsed: { error?: { code?: string } } & Partial<DocumentOutput> = {};
      try {
        parsed = JSON.parse(xhr.responseText);
      } catch {
        // An answer that is not JSON falls through to the generic message.
      }
      if (xhr.status === 201) resolve({ ok: true, document: parsed as DocumentOutput });
      else {
        if (xhr.status === 401) reportSessionEnded();
        resolve({ ok: false, status: xhr.status, code: parsed.error?.code });
      }
    };
    xhr.onerror = () => resolve({ ok: false, status: 0 });
    xhr.send(body);
  });
}

const rich = {
  strong: (chunks: React.ReactNode) => <strong className="font-medium text-slate-800">{chunks}</strong>,
  code: (chunks: React.ReactNode) => <code translate="no">{chunks}</code>,
};

export function DocumentsManager({
  documents: initial,
  canEdit,
  maxBytes,
  maxCount,
  languageModel,
}: {
  documents: DocumentOutput[];
  canEdit: boolean;
  maxBytes: number;
  maxCount: number;
  /** Whether a language model is configured (POLISH_LLM_*): only then does polishing read the documents. */
  languageModel: boolean;
}) {
  const router = useRouter();
  const [documents, setDocuments] = useState(initial);
  const [upload, setUpload] = useState<Upload>();
  const [notice, setNotice] = useState<{ tone: "error" | "success"; text: string }>();
  const [deleting, setDeleting] = useState<string>();
  const [, startTransition] = useTransition();
  const [confirm, confirmDialog] = useConfirm();
  const input = useRef<HTMLInputElement>(null);
  const full = documents.length >= maxCount;
  const t = useTranslations("settingsProfile.documents");
  const errorMessage = useApiErrorMessage();
  const format = useAppFormat();

  async function onFiles(files: FileList | null) {
    const file = files?.[0];
    if (input.current) input.current.value = "";
    if (!file) return;
    setNotice(undefined);
    if (file.type !== "application/pdf" && !/\.pdf$/i.test(file.name)) {
      setNotice({ tone: "error", text: t("notPdf", { name: file.name }) });
      return;
    }
    if (file.size > maxBytes) {
      setNotice({ tone: "error", text: t("tooLarge", { name: file.name, size: format.bytes(file.size), max: format.bytes(maxBytes) }) });
      return;
    }
    try {
      setUpload({ filename: file.name, stage: "reading", percent: 0 });
      const data = await readAsDataUrl(file, (percent) => setUpload({ filename: file.name, stage: "reading", percent }));
      if (data === null) {
        setNotice({ tone: "error", text: t("unreadable") });
        return;
      }
      setUpload({ filename: file.name, stage: "uploading", percent: 0 });
      const result = await postDocument(JSON.stringify({ filename: file.name, data }), (percent) =>
        setUpload({ filename: file.name, stage: percent >= 100 ? "processing" : "uploading", percent }),
      );
      if (result.ok) {
        setDocuments((current) => [...current, result.document]);
        setNotice({
          tone: "success",
          text:
            result.document.text_length > 0
              ? t("added", { name: result.document.filename, pages: result.document.pages })
              : t("addedNoText", { name: result.document.filename }),
        });
        router.refresh();
      } else {
        // The one conflict an upload meets is the account's document limit.
        setNotice({ tone: "error", text: result.status === 409 ? t("full", { max: maxCount }) : errorMessage(result) });
      }
    } catch {
      setNotice({ tone: "error", text: t("failed") });
    } finally {
      setUpload(undefined);
    }
  }

  async function remove(document: DocumentOutput) {
    if (!(await confirm({ title: t("confirmTitle", { name: document.filename }), body: t("confirmBody"), confirmLabel: t("confirm") }))) return;
    setDeleting(document.id);
    startTransition(async () => {
      const result = await deleteDocumentAction(document.id);
      if (result.ok) setDocuments((current) => current.filter((d) => d.id !== document.id));
      else setNotice({ tone: "error", text: errorMessage(result) });
      setDeleting(undefined);
    });
  }

  const stageLabel = upload ? { reading: t("stage.reading", { name: upload.filename }), uploading: t("stage.uploading", { name: upload.filename }), processing: t("stage.processing", { name: upload.filename }) }[upload.stage] : "";
  const overall = upload ? (upload.stage === "reading" ? upload.percent * 0.1 : upload.stage === "uploading" ? 10 + upload.percent * 0.85 : 95) : 0;

  return (
    <Card className="p-0">
      {confirmDialog}
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-200 px-6 py-4">
        <div>
          <h2 className="text-base font-semibold">{t("title")}</h2>
          <p className="mt-1 text-sm text-slate-600">
            {t("hint", { size: format.bytes(maxBytes), max: maxCount, count: documents.length })}
          </p>
          <ul className="mt-2 list-disc pl-5 text-sm text-slate-600" aria-label={t("feeds")}>
            <li>{t.rich("suggested", rich)}</li>
            <li>{t.rich(languageModel ? "polishingModel" : "polishingRules", rich)}</li>
          </ul>
        </div>
        {canEdit ? (
          <div>
            <input
              ref={input}
              id="document-upload"
              type="file"
              accept="application/pdf,.pdf"
              className="sr-only"
              disabled={Boolean(upload) || full}
              onChange={(event) => onFiles(event.target.files)}
            />
            <label
              htmlFor="document-upload"
              aria-disabled={Boolean(upload) || full}
              className={`inline-flex cursor-pointer items-center rounded-md px-3.5 py-2 text-sm font-medium text-white ${upload || full ? "cursor-not-allowed bg-brand-600/60" : "bg-brand-600 hover:bg-brand-700"}`}
            >
              {t("upload")}
            </label>
          </div>
        ) : null}
      </div>

      <div className="flex flex-col gap-3 px-6 py-4">
        {upload ? (
          <div className="flex flex-col gap-1" aria-live="polite">
            <div className="flex justify-between text-sm">
              <span className="truncate">{stageLabel}</span>
              <span className="tabular-nums text-slate-500">{Math.round(overall)}%</span>
            </div>
            <div role="progressbar" aria-label={t("progress")} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(overall)} className="h-2 overflow-hidden rounded-full bg-slate-200">
              <div className={`h-full rounded-full bg-brand-600 transition-all ${upload.stage === "processing" ? "animate-pulse" : ""}`} style={{ width: `${overall}%` }} />
            </div>
          </div>
        ) : null}
        {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
        {full && canEdit ? <p className="text-sm text-amber-700">{t("full", { max: maxCount })}</p> : null}
      </div>

      {documents.length === 0 ? (
        <p className="px-6 pb-6 text-sm text-slate-500">{t("empty")}</p>
      ) : (
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={t("table")}>
          <table className="w-full text-left text-sm" aria-label={t("list")}>
            <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-6 py-2 font-medium">{t("file")}</th>
                <th scope="col" className="px-3 py-2 font-medium">{t("size")}</th>
                <th scope="col" className="px-3 py-2 font-medium">{t("pages")}</th>
                <th scope="col" className="px-3 py-2 font-medium">{t("text")}</th>
                <th scope="col" className="px-3 py-2 font-medium">{t("added_at")}</th>
                {canEdit ? <th scope="col" className="px-6 py-2 font-medium"><span className="sr-only">{t("actions")}</span></th> : null}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {documents.map((document) => (
                <tr key={document.id}>
                  <td className="max-w-56 px-6 py-3 font-medium">
                    <a href={`/v1/config/documents/${document.id}/file`} target="_blank" rel="noreferrer" className="block truncate text-brand-700 hover:underline" data-user-content>
                      {document.filename}
                    </a>
                  </td>
                  <td className="whitespace-nowrap px-3 py-3 tabular-nums">{format.bytes(document.size)}</td>
                  <td className="px-3 py-3 tabular-nums">{document.pages}</td>
                  <td className="whitespace-nowrap px-3 py-3">
                    {document.text_length > 0 ? (
                      <ExtractedText document={document} />
                    ) : (
                      <span className="text-amber-700">{t("noText")}</span>
                    )}
                  </td>
                  <td className="whitespace-nowrap px-3 py-3">
                    <time dateTime={document.created_at}>{format.dateTime(document.created_at)}</time>
                  </td>
                  {canEdit ? (
                    <td className="px-6 py-3 text-right">
                      <Button type="button" variant="secondary" onClick={() => remove(document)} disabled={deleting === document.id} aria-label={t("deleteNamed", { name: document.filename })}>
                        {deleting === document.id ? t("deleting") : t("delete")}
                      </Button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

/** The characters count, and on demand the text the smart features read, in a dialog-like panel. */
function ExtractedText({ document }: { document: DocumentOutput }) {
  const [state, setState] = useState<{ status: "closed" } | { status: "loading" } | { status: "open"; text: string } | { status: "error"; message: string }>({ status: "closed" });
  const t = useTranslations("settingsProfile.documents");
  const errorMessage = useApiErrorMessage();
  const label = t("characters", { count: document.text_length });

  async function open() {
    setState({ status: "loading" });
    const result = await requestJson<{ text: string }>("GET", `/v1/config/documents/${document.id}`);
    setState(result.ok ? { status: "open", text: result.data.text } : { status: "error", message: errorMessage(result) });
  }

  return (
    <div className="flex flex-col items-start gap-1">
      <span>{label}</span>
      {state.status === "closed" || state.status === "error" ? (
        <button type="button" className="text-xs text-brand-700 underline" onClick={() => void open()}>
          {t("view")}
        </button>
      ) : null}
      {state.status === "loading" ? <span className="text-xs text-slate-500">{t("loading")}</span> : null}
      {state.status === "error" ? <span className="text-xs text-red-600">{state.message}</span> : null}
      {state.status === "open" ? (
        <div className="w-[min(36rem,80vw)] whitespace-normal">
          <div className="flex items-center justify-between">
            <span className="text-xs font-medium text-slate-700">{t("textOf", { name: document.filename })}</span>
            <button type="button" className="text-xs text-brand-700 underline" onClick={() => setState({ status: "closed" })}>
              {t("hide")}
            </button>
          </div>
          <pre tabIndex={0} aria-label={t("extractedOf", { name: document.filename })} data-user-content className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded-md border border-slate-200 bg-slate-50 p-2 font-sans text-xs text-slate-800">
            {state.text}
          </pre>
        </div>
      ) : null}
    </div>
  );
}
