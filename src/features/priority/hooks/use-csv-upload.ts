/**
 * One upload, step by step: choose a file → the server checks it (dry run) → the user sees the
 * parsed rows and every error → applies → the result. A newer file or closing the dialog makes
 * the answers of older checks irrelevant; they are dropped, never shown. An apply's is never dropped.
 */
import { useCallback, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { UploadLineError, UploadResult } from '../../../contract/priority';
import { PRIORITY_UPLOAD_MAX_BYTES } from '../../../domain/constants';
import type { PriorityUploadKind } from '../../../domain/priority';
import { sessionQueries } from '../../../lib/profile';
import { priorityQueries } from '../api/get-priorities';
import { uploadPriorityCsv, UploadRefused, UploadUnanswered } from '../api/upload-priority-csv';

export type UploadState =
  | { step: 'idle' }
  | { step: 'checking'; fileName: string }
  | { step: 'preview'; fileName: string; result: UploadResult }
  | { step: 'applying'; fileName: string; result: UploadResult }
  | { step: 'applied'; fileName: string; result: UploadResult }
  | { step: 'refused'; fileName: string; message: string; errors: UploadLineError[] }
  /** An apply got no answer: it may have been applied. "Try again" (or the same file applied after a close) is applied once. */
  | { step: 'unsure'; fileName: string; result: UploadResult; message: string };

export function useCsvUpload(kind: PriorityUploadKind, tooLargeMessage: string) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<UploadState>({ step: 'idle' });
  const file = useRef<File | null>(null);
  const run = useRef(0);
  /** An apply on its way: nothing drops it (its outcome is what the user must see). */
  const applying = useRef(false);

  const refuse = (fileName: string, error: unknown): UploadState =>
    error instanceof UploadRefused
      ? { step: 'refused', fileName, message: error.message, errors: error.errors }
      : { step: 'refused', fileName, message: error instanceof Error ? error.message : String(error), errors: [] };

  const choose = useCallback(
    async (chosen: File) => {
      const id = ++run.current;
      file.current = chosen;
      if (chosen.size > PRIORITY_UPLOAD_MAX_BYTES) {
        setState({ step: 'refused', fileName: chosen.name, message: tooLargeMessage, errors: [] });
        return;
      }
      setState({ step: 'checking', fileName: chosen.name });
      try {
        const result = await uploadPriorityCsv(kind, chosen, { dryRun: true });
        if (id === run.current) setState({ step: 'preview', fileName: chosen.name, result });
      } catch (error) {
        if (id === run.current) setState(refuse(chosen.name, error));
      }
    },
    [kind, tooLargeMessage],
  );

  const apply = useCallback(async () => {
    const chosen = file.current;
    if ((state.step !== 'preview' && state.step !== 'unsure') || !chosen) return;
    const id = ++run.current;
    const preview = state.result;
    applying.current = true;
    setState({ step: 'applying', fileName: chosen.name, result: preview });
    try {
      // A retry of this apply (lost answer) is replayed by the server, not applied twice: its key
      // belongs to the file's content (uploadPriorityCsv), not to this dialog.
      const result = await uploadPriorityCsv(kind, chosen, { dryRun: false });
      await queryClient.invalidateQueries({ queryKey: priorityQueries.all() });
      if (kind === 'shipToParty') await queryClient.invalidateQueries({ queryKey: [...sessionQueries.all(), 'profile'] });
      if (id === run.current) setState({ step: 'applied', fileName: chosen.name, result });
    } catch (error) {
      if (id !== run.current) return;
      if (error instanceof UploadUnanswered) {
        // Whatever happened stays visible: the lists are read again, and the choice is to try again.
        void queryClient.invalidateQueries({ queryKey: priorityQueries.all() });
        setState({ step: 'unsure', fileName: chosen.name, result: preview, message: error.message });
      } else {
        setState(refuse(chosen.name, error));
      }
    } finally {
      applying.current = false;
    }
  }, [kind, queryClient, state]);

  // Not while applying: a dialog closed anyway (the browser's own close) shows the apply's
  // outcome when opened again, instead of dropping it unseen.
  const reset = useCallback(() => {
    if (applying.current) return;
    run.current += 1;
    file.current = null;
    setState({ step: 'idle' });
  }, []);

  return { state, choose, apply, reset };
}
