import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createForm,
  deleteForm,
  executeForm,
  getFormInstances,
  getFormResponses,
  getForms,
} from '@flywheel/shared/endpoints/forms';
import type { CreateFormRequest, ExecuteFormRequest, FormRow } from '@flywheel/shared/forms';
import { callEndpoint } from '../../lib/endpoint-client.ts';
import { useCurrentTeam, workspaceKey } from '../workspace/index.ts';

/** The Form Table of a workspace, and each form's instances. */
export const formsKey = (teamId: string) => [...workspaceKey(teamId), 'forms'] as const;
const instancesKey = (teamId: string, formId: number) => [...formsKey(teamId), 'instances', formId] as const;

/** GET /actions/getforms/:teamId (newest first). */
export const formsQuery = (teamId: string) =>
  queryOptions({
    queryKey: formsKey(teamId),
    queryFn: ({ signal }) => callEndpoint(getForms, { params: { teamId } }, { signal }).then((r) => r.data),
  });

export function useForms() {
  const { teamId } = useCurrentTeam();
  return useQuery({ ...formsQuery(teamId), enabled: teamId !== '' });
}

/** POST /actions/createform: the new form joins the table (first: newest first). */
export function useCreateForm() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateFormRequest) => callEndpoint(createForm, { body }, { idempotent: true }),
    onSuccess: (res) =>
      qc.setQueryData<FormRow[]>(formsKey(teamId), (rows) => (rows ? [res.data, ...rows] : rows)),
  });
}

/** DELETE /actions/deleteform/:teamId/:id: the row leaves the table; future recurrences stop. */
export function useDeleteForm() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callEndpoint(deleteForm, { params: { teamId, id } }),
    onSuccess: (_res, id) =>
      qc.setQueryData<FormRow[]>(formsKey(teamId), (rows) => rows?.filter((r) => r.master_form_id !== id)),
  });
}

/** POST /actions/executeform: a new instance to the chosen members, channels and tags. */
export function useExecuteForm() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ExecuteFormRequest) => callEndpoint(executeForm, { body }, { idempotent: true }),
    onSuccess: (res) => {
      void qc.invalidateQueries({ queryKey: instancesKey(teamId, res.data.master_form_id) });
      void qc.invalidateQueries({ queryKey: formsKey(teamId), exact: true });
    },
  });
}

/** GET /actions/getallforminstances/:teamId/:formId (newest first, with response counts). */
export function useFormInstances(formId: number | null) {
  const { teamId } = useCurrentTeam();
  return useQuery({
    queryKey: instancesKey(teamId, formId ?? 0),
    queryFn: ({ signal }) =>
      callEndpoint(getFormInstances, { params: { teamId, id: formId! } }, { signal }).then((r) => r.data),
    enabled: teamId !== '' && formId !== null,
  });
}

/** POST /actions/getformresponses: an instance's responses (the form instance data page). */
export function useFormResponses(formId: number, instanceId: number | null) {
  const { teamId } = useCurrentTeam();
  return useQuery({
    queryKey: [...formsKey(teamId), 'responses', formId, instanceId ?? 0],
    queryFn: ({ signal }) =>
      callEndpoint(
        getFormResponses,
        { body: { team_id: teamId, master_form_id: formId, form_id: instanceId! } },
        { signal },
      ).then((r) => r.data),
    enabled: teamId !== '' && instanceId !== null && Number.isSafeInteger(formId) && formId > 0,
  });
}
