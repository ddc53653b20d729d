/**
 * The upload form's state in React: the chosen target, each target's entries (kept when switching
 * between targets), validation, and a send with progress and cancel whose server errors land on
 * the fields they name.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import type { DescribeResult } from '../../../shared/protocol.ts';
import type { ServerTarget } from '../../transport/jql-client.ts';
import { buildUploadPlan, previewParts } from './build-upload.ts';
import { buildFormModel } from './form-model.ts';
import { emptyFormState, FORM_KEY, type FormErrors, type FormState } from './form-state.ts';
import { sendUpload, outcomeErrors, type UploadOutcome } from './send-upload.ts';
import { mapServerErrors } from './server-errors.ts';
import { listUploadTargets } from './upload-targets.ts';
import { UploadCancelledError, type UploadProgress, type UploadTransport } from './upload-transport.ts';
import { fileSizeErrors, validateForm } from './validate-form.ts';

export type UploadPhase =
  | { kind: 'editing' }
  | { kind: 'sending'; progress: UploadProgress | null }
  | { kind: 'done'; outcome: UploadOutcome }
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: string };

export function useUpload(
  describe: DescribeResult | null,
  server: ServerTarget | null,
  transport: UploadTransport,
  onResult?: (outcome: UploadOutcome) => void,
  confirmSend?: () => Promise<boolean>,
) {
  const targets = useMemo(() => listUploadTargets(describe), [describe]);
  const [targetKey, setTargetKey] = useState('');
  const target = targets.find((t) => t.key === targetKey) ?? targets[0] ?? null;
  const model = useMemo(() => (target ? buildFormModel(target) : null), [target]);
  const [states, setStates] = useState<Record<string, FormState>>({});
  const [showErrors, setShowErrors] = useState(false);
  const [serverErrors, setServerErrors] = useState<FormErrors>({});
  const [phase, setPhase] = useState<UploadPhase>({ kind: 'editing' });
  const abort = useRef<AbortController | null>(null);

  const blank = useMemo(() => (model ? emptyFormState(model) : null), [model]);
  const state = target ? (states[target.key] ?? blank) : null;
  const limits = describe?.limits ?? null;
  const validation = useMemo(() => (model && state ? validateForm(model, state, limits) : null), [model, state, limits]);
  const preview = useMemo(() => (target && validation?.ok ? previewParts(buildUploadPlan(target, validation)) : null), [target, validation]);

  const update = useCallback(
    (change: (s: FormState) => FormState) => {
      if (!target || !model) return;
      setStates((all) => ({ ...all, [target.key]: change(all[target.key] ?? emptyFormState(model)) }));
      setServerErrors({});
    },
    [target, model],
  );

  const selectTarget = useCallback((key: string) => {
    setTargetKey(key);
    setShowErrors(false);
    setServerErrors({});
    setPhase({ kind: 'editing' });
  }, []);

  const send = useCallback(async () => {
    if (!target || !model || !state || !validation) return;
    setShowErrors(true);
    if (!validation.ok || !server) return;
    // Every multipart PUT writes: a read-only connection asks first (and may say no).
    if (confirmSend && !(await confirmSend())) return;
    const plan = buildUploadPlan(target, validation);
    const controller = new AbortController();
    abort.current = controller;
    setServerErrors({});
    setPhase({ kind: 'sending', progress: null });
    try {
      const outcome = await sendUpload(transport, server, plan, {
        signal: controller.signal,
        onProgress: (progress) => setPhase({ kind: 'sending', progress }),
        describe,
      });
      if (outcome.view.failed) {
        const mapped = mapServerErrors(outcomeErrors(outcome), model, state, plan);
        if (Object.keys(mapped).length === 0) mapped[FORM_KEY] = [`The server answered ${outcome.response.status} ${outcome.response.statusText}.`];
        setServerErrors(mapped);
      }
      setPhase({ kind: 'done', outcome });
      onResult?.(outcome);
    } catch (err) {
      setPhase(err instanceof UploadCancelledError ? { kind: 'cancelled' } : { kind: 'failed', message: (err as Error).message });
    } finally {
      abort.current = null;
    }
  }, [target, model, state, validation, server, transport, onResult, confirmSend]);

  const cancel = useCallback(() => abort.current?.abort(), []);

  // A chosen file's own problems (over the size limit) are said at once, not only when Upload is
  // clicked: the preview disappears with it, and the reason must not wait. The rest waits for Upload.
  const fileErrors = useMemo(() => (model && state ? fileSizeErrors(model, state, limits) : {}), [model, state, limits]);
  const clientErrors: FormErrors = showErrors && validation && !validation.ok ? validation.errors : fileErrors;
  const errorsFor = (key: string): string[] => [...(clientErrors[key] ?? []), ...(serverErrors[key] ?? [])];

  return { targets, target, model, state, update, selectTarget, send, cancel, phase, preview, errorsFor, valid: validation?.ok ?? false };
}
