import type { UseFormReturnType } from '@mantine/form';
import type { WidgetConfig } from '@omnibot/contracts';
import { createContext } from 'react';

/** The form over a bot's whole widget configuration that every section of the editor edits. */
export type ConfigForm = UseFormReturnType<WidgetConfig>;

/** The bot being edited, for the fields that make links of it (images picked from the gallery). */
export const EditedBot = createContext('');
