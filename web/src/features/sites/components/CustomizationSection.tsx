// How the site looks: the fields people change most, saved together, with the site
// itself beside them in a frame that shows the unsaved values as they are chosen
// (livePreview.ts) and reloads after each save.
import { Button, ColorInput, Grid, Group, NativeSelect, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useRef, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { putCustomization, type Customization, type Site } from '../api/sites.ts';
import { useCustomization, useSiteMutation } from '../queries/sites.ts';
import { canShowUnsaved, showInPreview } from './livePreview.ts';

const THEMES = ['clean', 'muted', 'bold', 'gradient'].map((value) => ({ value, label: value[0].toUpperCase() + value.slice(1) }));
const CORNERS = ['straight', 'rounded', 'circular'].map((value) => ({ value, label: value[0].toUpperCase() + value.slice(1) }));
const ANNOUNCEMENT_STYLES = ['info', 'warning', 'danger', 'success'].map((value) => ({ value, label: value[0].toUpperCase() + value.slice(1) }));

export function CustomizationSection({ organizationId, site }: { organizationId: string; site: Site }) {
  const { data: customization, error } = useCustomization(organizationId, site.id);
  const [version, setVersion] = useState(0);
  const saving = useSiteMutation(organizationId, (body: Partial<Customization>) => putCustomization(organizationId, site.id, body));
  const form = useRef<HTMLFormElement>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const [live, setLive] = useState(false);
  // Whether the form holds values not saved yet: a frame loaded then shows them again.
  const edited = useRef(false);
  // After the inputs have their new values (a colour picked in ColorInput's dropdown reaches its input on the next render).
  const showUnsaved = () =>
    requestAnimationFrame(() => {
      edited.current = true;
      if (!form.current) return;
      const values = formValues(form.current);
      setLive(
        showInPreview(frame.current, {
          primaryLight: values.primaryLight,
          primaryDark: values.primaryDark,
          corners: values.corners,
          announcement: values.announcement === 'on',
          message: values.message ?? '',
          announcementStyle: values.announcementStyle,
        }),
      );
    });
  return (
    <Grid gutter="lg">
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Paper withBorder p="lg" component="section" aria-labelledby="customization-title">
          <ErrorAlert error={error} />
          {customization && (
            <form
              ref={form}
              onChange={showUnsaved}
              onInput={showUnsaved}
              onSubmit={(event) => {
                event.preventDefault();
                const values = formValues(event.currentTarget);
                saving.mutate(
                  {
                    styling: { ...customization.styling, theme: values.theme, corners: values.corners, primaryColor: { light: values.primaryLight, dark: values.primaryDark } },
                    themes: { default: values.defaultTheme === 'dark' ? 'dark' : 'light', toggeable: values.toggeable === 'on' },
                    announcement: {
                      enabled: values.announcement === 'on' && !!values.message,
                      ...(values.message ? { message: values.message } : {}),
                      style: values.announcementStyle,
                    },
                  },
                  {
                    onSuccess: () => {
                      edited.current = false;
                      setVersion((previous) => previous + 1);
                    },
                  },
                );
              }}
            >
              <Stack>
                <Title order={2} size="h3" id="customization-title">
                  Customization
                </Title>
                <ErrorAlert error={saving.error} />
                {saving.isSuccess && (
                  <Text role="status" size="sm">
                    Saved. The preview shows it.
                  </Text>
                )}
                <NativeSelect name="theme" label="Theme" defaultValue={customization.styling.theme} data={THEMES} />
                <Group grow>
                  <ColorInput name="primaryLight" label="Main colour (light)" defaultValue={customization.styling.primaryColor.light} format="hex" withEyeDropper={false} onChange={showUnsaved} />
                  <ColorInput name="primaryDark" label="Main colour (dark)" defaultValue={customization.styling.primaryColor.dark} format="hex" withEyeDropper={false} onChange={showUnsaved} />
                </Group>
                <NativeSelect name="corners" label="Corners" defaultValue={customization.styling.corners} data={CORNERS} />
                <NativeSelect
                  name="defaultTheme"
                  label="Readers see first"
                  defaultValue={customization.themes.default}
                  data={[
                    { value: 'light', label: 'Light' },
                    { value: 'dark', label: 'Dark' },
                  ]}
                />
                <Switch name="toggeable" label="Readers may switch between light and dark" defaultChecked={customization.themes.toggeable} />
                <Switch name="announcement" label="Show an announcement" defaultChecked={customization.announcement?.enabled ?? false} />
                <TextInput name="message" label="Announcement" maxLength={500} defaultValue={customization.announcement?.message ?? ''} />
                <NativeSelect name="announcementStyle" label="Announcement style" defaultValue={customization.announcement?.style ?? 'info'} data={ANNOUNCEMENT_STYLES} />
                <Group>
                  <Button type="submit" loading={saving.isPending}>
                    Save customization
                  </Button>
                </Group>
              </Stack>
            </form>
          )}
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            {live
              ? "Preview, as the organization's members read the site (published or not): it shows your changes as you make them, and readers see them once saved"
              : "Preview, as the organization's members read the site (published or not), as saved"}
          </Text>
          <iframe
            key={version}
            ref={frame}
            // Reloaded while the form holds unsaved values: they show again.
            onLoad={() => (edited.current ? showUnsaved() : setLive(canShowUnsaved(frame.current)))}
            title={`Preview of ${site.title}`}
            src={site.urls.preview}
            style={{ width: '100%', height: 600, border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-md)', background: 'white' }}
          />
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
